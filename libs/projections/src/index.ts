export * from './projection.ts';
export * from './apply-projection.ts';
export * from './devices.ts';
export * from './topics.ts';
export * from './notifications.ts';
export * from './receipts.ts';
export * from './catalog.ts';
