export * from './connect-mongo.ts';
export * from './collections.ts';
export * from './read-models.ts';
export * from './count-matching.ts';
export * from './find-by-ids.ts';
export * from './store/store-adapter.ts';
export { FERRETDB_INDEXES } from './store/ferretdb-store.ts';
