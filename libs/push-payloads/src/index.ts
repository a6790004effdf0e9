export * from './push-message.ts';
export * from './apns-payload.ts';
export * from './fcm-payload.ts';
export * from './webpush-payload.ts';
export * from './provider-limits.ts';
export * from './merge-override.ts';
export * from './device-token.ts';
export * from './live-activity-payload.ts';
