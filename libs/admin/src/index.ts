export * from './api-key.ts';
export * from './admin-store.ts';
export * from './idempotency-store.ts';
