export * from './push-message.ts';
export { apnsOutcome, type ApnsRawResult } from './apns-outcome.ts';
export { fcmOutcome, type FcmRawResult } from './fcm-outcome.ts';
export { createApnsClient, type ApnsClient, type ApnsClientOptions, type ApnsCredential } from './apns-client.ts';
export { createFcmClient, type FcmClient, type FcmClientOptions, type FcmServiceAccount } from './fcm-client.ts';
export { parseEndpoint, type Endpoint } from './endpoint.ts';
export { createLimiter, chunk, type Limiter } from './concurrency.ts';
