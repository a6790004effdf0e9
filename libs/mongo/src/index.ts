export * from './connect-mongo.ts';
export * from './collections.ts';
export type * from './documents.ts';
