export * from './api-key.ts';
export * from './admin-store.ts';
export * from './idempotency-store.ts';
export * from './secret-box.ts';
export * from './provider-credentials.ts';
export * from './credential-store.ts';
export * from './device-auth.ts';
export * from './local-secret-key.ts';
