export * from './api-key.ts';
export * from './admin-store.ts';
