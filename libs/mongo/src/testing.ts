// Tests may look at what was stored (or store what no query writes) with the driver itself:
// this entry point (`@herald/mongo/testing`) reaches the database behind a Store. Code
// outside tests asks through the queries (the lint rule keeps this import in tests and libs/testing).
export type { Db } from 'mongodb';
export { driverDb } from './store-handle.ts';
export { storeAdapter } from './store/store-adapter.ts';
