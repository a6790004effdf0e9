import type { Collection, Filter, UpdateFilter } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';

/**
 * `provider_credentials`: one document per project (`_id` = the project id),
 * one field per provider holding its sealed credential (libs/admin
 * credential-store.ts seals and opens them; this class never sees a key).
 */
export class ProviderCredentialQueries<Record extends { _id: string }> {
  readonly #credentials: Collection<Record>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#credentials = db.collection<Record>(ADMIN_COLLECTIONS.providerCredentials);
  }

  /** The project's document, or null when it has no credentials. */
  async credentials(projectId: string): Promise<Record | null> {
    return (await this.#credentials.findOne({ _id: projectId } as Filter<Record>)) as Record | null;
  }

  /** Ids of the projects with a document, in order. */
  async projectIds(): Promise<string[]> {
    const records = await this.#credentials.find({}, { projection: { _id: 1 } }).sort({ _id: 1 }).toArray();
    return records.map((record) => record._id);
  }

  /** Sets one provider's field of the project's document, creating the document when it has none. */
  async setProvider<Field extends Exclude<keyof Record, '_id'> & string>(projectId: string, provider: Field, stored: Record[Field]): Promise<void> {
    const write = () => this.#credentials.updateOne({ _id: projectId } as Filter<Record>, { $set: { [provider]: stored } } as UpdateFilter<Record>, { upsert: true });
    try {
      await write();
    } catch (error) {
      // Two first writes for one project race to insert it; the loser's update now finds the document.
      if ((error as { code?: unknown }).code !== 11000) throw error;
      await write();
    }
  }
}
