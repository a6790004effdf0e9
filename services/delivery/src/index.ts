export * from './providers/index.ts';
