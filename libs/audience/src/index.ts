export * from './targets.ts';
export * from './predicate.ts';
export * from './explain-audience.ts';
export * from './mongo-filter.ts';
export * from './plain-target.ts';
