import type { Collection, Db, Document, Filter } from 'mongodb';
import { replacements } from './replacements.ts';
import { ferretdbStore } from './ferretdb-store.ts';
import type { ElementPage, StoreAdapter } from './store-contract.ts';

export type { StoreAdapter } from './store-contract.ts';

/** MongoDB: every declared index (docs/internals/indexes.md), and the driver's own queries. */
export const mongodbStore: StoreAdapter = {
  flavour: 'mongodb',
  indexesFor: (_logical, declared) => [...declared],
  count: (collection, filter, options = {}) => collection.countDocuments(filter, options.limit === undefined ? {} : { limit: options.limit }),
  pageWithElement,
  replaceAll: async (collection, docs) => {
    if (docs.length > 0) await collection.bulkWrite(replacements(docs), { ordered: false });
  },
};

async function pageWithElement<T extends Document>(collection: Collection<T>, { filter, field, element, sort, skip, limit }: ElementPage<T>): Promise<{ count: number; docs: T[] }> {
  const matching = { $and: [filter, { [field]: { $elemMatch: element } }] } as Filter<T>;
  const [count, docs] = await Promise.all([collection.countDocuments(matching), collection.find(matching).sort(sort).skip(skip).limit(limit).toArray()]);
  return { count, docs: docs as T[] };
}

/** The adapter for a server, from `buildInfo` (FerretDB names itself there). */
export async function detectStore(db: Db): Promise<StoreAdapter> {
  const info = await db.command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string' ? ferretdbStore : mongodbStore;
}

/**
 * The adapter of a database handle, detected at its first use and kept with
 * the handle (connectMongo asks at start-up, so the choice is made once,
 * there). Keyed by the Db object itself: nothing outlives the handle.
 */
const chosen = new WeakMap<Db, Promise<StoreAdapter>>();

export function storeAdapter(db: Db): Promise<StoreAdapter> {
  let adapter = chosen.get(db);
  if (adapter === undefined) {
    adapter = detectStore(db);
    chosen.set(db, adapter);
    // A failed detection (store down) is not remembered: the next caller asks again.
    adapter.catch(() => chosen.delete(db));
  }
  return adapter;
}

/** A collection's name without its read-model version: `devices_v2` → `devices`, `devices_v2_counts` → `devices_counts`. */
export function logicalCollection(name: string): string {
  const match = /^(.*)_v\d+(_counts)?$/.exec(name);
  return match === null ? name : `${match[1]}${match[2] ?? ''}`;
}
