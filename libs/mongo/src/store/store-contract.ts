import type { Collection, Document, Filter, IndexDescription, Sort } from 'mongodb';

/**
 * What differs between the stores Herald runs on, in one place (ARCHITECTURE.md,
 * "one adapter per store"): MongoDB, or the local FerretDB 1.24 on SQLite with
 * Herald's patches (infra/README.md). Chosen once per connection, from the
 * server's `buildInfo`; the queries (queries/<model>.ts) ask it, never the
 * server's flavour, so MongoDB runs the plain query and only the FerretDB
 * adapter carries FerretDB's workarounds.
 */
export interface StoreAdapter {
  readonly flavour: 'mongodb' | 'ferretdb';
  /**
   * Which of a collection's declared indexes this store creates. `logical` is
   * the collection's name without its read-model version (`devices` for
   * `devices_v2`, `devices_counts` for `devices_v2_counts`).
   */
  indexesFor(logical: string, declared: readonly IndexDescription[]): IndexDescription[];
  /** How many documents match `filter` (at most `limit`, when given). */
  count<T extends Document>(collection: Collection<T>, filter: Filter<T>, options?: { limit?: number }): Promise<number>;
  /**
   * A page (in `sort` order) of the documents matching `filter` whose array
   * `field` holds an element equal to `element` on each of its keys, and how
   * many such documents there are.
   */
  pageWithElement<T extends Document>(collection: Collection<T>, query: ElementPage<T>): Promise<{ count: number; docs: T[] }>;
  /** Writes each document whole by its `_id` (replace, or insert when missing), unordered. */
  replaceAll<T extends { _id: string }>(collection: Collection<T>, docs: readonly T[]): Promise<void>;
}

export interface ElementPage<T extends Document> {
  filter: Filter<T>;
  field: string;
  element: Readonly<Record<string, string | number | boolean>>;
  sort: Sort;
  skip: number;
  limit: number;
}
