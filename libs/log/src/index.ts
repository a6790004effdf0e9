export * from './create-logger.ts';
