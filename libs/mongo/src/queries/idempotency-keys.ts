import type { Collection, Filter, UpdateFilter } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';

/** What every idempotency record has; libs/admin idempotency-store.ts decides the rest. */
export interface IdempotencyRecordBase {
  _id: string;
  state: 'pending' | 'done';
  created_at: Date;
  expires_at?: Date;
}

/**
 * `idempotency_keys`: a request claims its key by inserting it (the unique
 * `_id` makes concurrent claims race safely). The rules of claiming are
 * libs/admin's (idempotency-store.ts); these are its reads and writes.
 */
export class IdempotencyKeys<Record extends IdempotencyRecordBase> {
  readonly #keys: Collection<Record>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#keys = db.collection<Record>(ADMIN_COLLECTIONS.idempotencyKeys);
  }

  /**
   * The TTL index that deletes keys at their `expires_at` (idempotent).
   * FerretDB 1.x refuses TTL indexes ("not implemented yet"): false there,
   * and expired keys stay until a claim takes them over.
   */
  async ensureTtlIndex(): Promise<boolean> {
    try {
      await this.#keys.createIndex({ expires_at: 1 }, { name: 'expire_keys', expireAfterSeconds: 0 });
      return true;
    } catch (error) {
      if (/expireAfterSeconds/.test((error as Error).message) && /not implemented/i.test((error as Error).message)) return false;
      throw error;
    }
  }

  /** Inserts the record; false when its key is taken already (duplicate `_id`). */
  async insert(record: Record): Promise<boolean> {
    try {
      await this.#keys.insertOne(record as never);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
      return false;
    }
  }

  async find(id: string): Promise<Record | null> {
    return (await this.#keys.findOne(byId<Record>(id))) as Record | null;
  }

  /**
   * Replaces the claim made at `createdAt` with `set` (its fields in `unset`
   * removed); false when another request took it over first (it was made at
   * another time now) or it is gone.
   */
  async takeOver(id: string, createdAt: Date, set: Partial<Record>, unset: ReadonlyArray<keyof Record & string>): Promise<boolean> {
    // An empty $unset is refused by the server: only when there is something to remove.
    const update = { $set: set, ...(unset.length === 0 ? {} : { $unset: Object.fromEntries(unset.map((field) => [field, ''])) }) } as UpdateFilter<Record>;
    return (await this.#keys.updateOne({ _id: id, created_at: createdAt } as Filter<Record>, update)).modifiedCount === 1;
  }

  async set(id: string, set: Partial<Record>): Promise<void> {
    await this.#keys.updateOne(byId<Record>(id), { $set: set });
  }

  /** Deletes the key while it is still pending (a done key keeps its answer). */
  async deletePending(id: string): Promise<void> {
    await this.#keys.deleteOne({ _id: id, state: 'pending' } as Filter<Record>);
  }
}

function byId<T>(id: string): Filter<T> {
  return { _id: id } as Filter<T>;
}
