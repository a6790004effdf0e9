import type { Collection, Document, Filter, IndexDescription } from 'mongodb';

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
}
