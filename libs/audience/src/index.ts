export * from './audience.ts';
