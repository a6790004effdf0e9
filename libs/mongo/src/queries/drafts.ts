import type { Collection, Db } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { storeAdapter } from '../store/store-adapter.ts';
import type { PageWindow } from './devices.ts';
import { driverDb, type Store } from '../store-handle.ts';

/**
 * A composer's draft: admin data of its project, like templates and
 * segments, never an event (nothing was asked of devices yet). The content
 * is kept as the JSON text the console sent: a draft may be incomplete or
 * invalid as a send (that is what a draft is), and its keys may be anything
 * a user typed (metadata keys with dots, `$`), which a document's field
 * names could not hold.
 */
export interface DraftDocument {
  _id: string;
  project_id: string;
  name: string;
  /** The send body being composed (`{"notification": …}` as the API takes it), as JSON text. */
  content_json: string;
  /** The sent notification this draft was duplicated from, if any. */
  source_notification_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The `drafts` admin collection: written and read by the API only. Every query names the project. */
export class DraftQueries {
  readonly #db: Db;
  readonly #drafts: Collection<DraftDocument>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#db = db;
    this.#drafts = db.collection<DraftDocument>(ADMIN_COLLECTIONS.drafts);
  }

  async insert(draft: DraftDocument): Promise<void> {
    await this.#drafts.insertOne(draft);
  }

  async get(projectId: string, id: string): Promise<DraftDocument | null> {
    return this.#drafts.findOne({ _id: id, project_id: projectId });
  }

  /** Replaces a project's draft's name and content; the draft after, or null when it is not the project's. */
  async update(projectId: string, id: string, set: Pick<DraftDocument, 'name' | 'content_json' | 'updated_at'>): Promise<DraftDocument | null> {
    return this.#drafts.findOneAndUpdate({ _id: id, project_id: projectId }, { $set: set }, { returnDocument: 'after' });
  }

  /** A page of the project's drafts, the most recently saved first (the one a user was just working on). */
  async page(projectId: string, page: PageWindow): Promise<DraftDocument[]> {
    return this.#drafts.find({ project_id: projectId }).sort({ updated_at: -1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  }

  async count(projectId: string, limit?: number): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#drafts, { project_id: projectId }, limit === undefined ? undefined : { limit });
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.#drafts.deleteOne({ _id: id, project_id: projectId })).deletedCount === 1;
  }
}
