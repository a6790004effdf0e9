export * from './targets.ts';
export * from './predicate.ts';
export * from './mongo-filter.ts';
