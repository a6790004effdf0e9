import type { Db } from 'mongodb';

/**
 * Where a handle keeps its driver database. A registered symbol, not a
 * #private field: under vitest a module can be loaded twice (once through
 * vitest, once natively by a plugin loader's import()), and a #field of one
 * copy's class is unreadable from the other's.
 */
const DRIVER = Symbol.for('herald.store.driver-db');

/**
 * Herald's handle on its store: composition roots hold it and hand it to the
 * query classes (queries/<model>.ts). It is opaque on purpose: its type shows
 * nothing, and the driver's database inside is reached only by libs/mongo
 * (driverDb), so services ask the store questions through queries and store
 * functions, never through the driver.
 */
export class Store {
  // A private member makes the type nominal: no other object passes for a Store.
  private declare readonly opaque: 'a Herald store handle';

  private constructor() {}
}

/** The handle over a driver database (connectMongo, unreachableStore). Not exported from the package's index. */
export function storeOver(db: Db): Store {
  const store = Object.create(Store.prototype) as Store;
  Object.defineProperty(store, DRIVER, { value: db });
  return store;
}

/** The driver database behind a handle: for libs/mongo's own queries (and tests through @herald/mongo/testing). */
export function driverDb(store: Store): Db {
  const db = (store as unknown as Partial<Record<typeof DRIVER, Db>>)[DRIVER];
  if (db === undefined) throw new TypeError('not a store handle (connectMongo makes them)');
  return db;
}

/**
 * A handle for building an app that must not touch a store (the OpenAPI
 * document at build time): query classes may be made over it, and any use
 * of a collection throws `message`.
 */
export function unreachableStore(message: string): Store {
  const fail = (): never => {
    throw new Error(message);
  };
  return storeOver({ collection: () => new Proxy({}, { get: fail }) } as unknown as Db);
}
