import type { Collection } from 'mongodb';
import { storeAdapter, type StoreAdapter } from '../store/store-adapter.ts';
import { driverDb, type Store } from '../store-handle.ts';

/**
 * One read-model version's collection as its projection writes it
 * (libs/projections): whole documents by `_id`. Each document has one writer
 * (the consumer of its partition), so these are all a projection needs:
 * insert what is new, read what is not, replace what changed, delete what
 * is gone. Replacing goes through the store adapter (one bulk write on
 * MongoDB, slices on FerretDB).
 */
export class ModelDocuments<Doc extends { _id: string }> {
  readonly #collection: Collection<Doc>;
  readonly #store: StoreAdapter;

  constructor(collection: Collection<Doc>, store: StoreAdapter) {
    this.#collection = collection;
    this.#store = store;
  }

  /** The collection `name` of the store (its adapter detected once per connection). */
  static async of<Doc extends { _id: string }>(store: Store, name: string): Promise<ModelDocuments<Doc>> {
    const db = driverDb(store);
    return new ModelDocuments(db.collection<Doc>(name), await storeAdapter(db));
  }

  get name(): string {
    return this.#collection.collectionName;
  }

  /** Inserts documents, unordered; returns the ids that already existed (duplicate key), which were not written. */
  async insertNew(docs: readonly Doc[]): Promise<Set<string>> {
    if (docs.length === 0) return new Set();
    try {
      await this.#collection.insertMany(docs as never, { ordered: false });
      return new Set();
    } catch (error) {
      const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors === undefined ? [] : [writeErrors]) as Array<{ index: number; code: number }>;
      if (list.length === 0 || list.some((item) => item.code !== 11000)) throw error;
      return new Set(list.map((item) => docs[item.index]!._id));
    }
  }

  /** The documents with these ids (those that exist), by one `_id: {$in}` (an index search on MongoDB and on Herald's FerretDB, infra/README.md). */
  async byIds(ids: readonly string[]): Promise<Map<string, Doc>> {
    if (ids.length === 0) return new Map();
    const docs = (await this.#collection.find({ _id: { $in: [...ids] } } as never).toArray()) as unknown as Doc[];
    return new Map(docs.map((doc) => [doc._id, doc] as const));
  }

  /** Writes each document whole by its `_id` (replace, or insert when missing), unordered. */
  async replaceAll(docs: readonly Doc[]): Promise<void> {
    await this.#store.replaceAll(this.#collection, docs);
  }

  /** About how many documents the collection holds, from its metadata (no scan): for measurements. */
  async estimatedCount(): Promise<number> {
    return this.#collection.estimatedDocumentCount();
  }

  async deleteIds(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.#collection.deleteMany({ _id: { $in: [...ids] } } as never);
  }
}
