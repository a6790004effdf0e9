export * from './apply-projection.ts';
export * from './apply-counted.ts';
export * from './purge-devices.ts';
export * from './catalog.ts';
export * from './run-projection.ts';
export * from './rebuild.ts';
export * from './written-documents.ts';
export * from './held-documents.ts';
