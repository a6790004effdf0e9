export { createFakeTls, type FakeTls } from './tls.ts';
export { createTestApnsKey, createTestServiceAccount, type ServiceAccountJson, type TestApnsKey, type TestServiceAccount } from './test-keys.ts';
export { startFakeApns, type ApnsDelivery, type FakeApns, type FakeApnsOptions } from './fake-apns.ts';
export { startFakeFcm, type FakeFcm, type FakeFcmOptions, type FcmDelivery } from './fake-fcm.ts';
export type { ApnsKeyRegistration, ApnsRule } from './apns-checks.ts';
export type { FcmAccountRegistration, FcmErrorCode, FcmRule } from './fcm-checks.ts';
export { FCM_MAX_PAYLOAD_BYTES } from './fcm-checks.ts';
export type { FakeStats } from './recorder.ts';
export type { TokenRuleBase } from './rules.ts';
