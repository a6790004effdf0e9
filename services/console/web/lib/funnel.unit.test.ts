import { describe, expect, it } from 'vitest';
import { progress, providerRows, settled } from './funnel.ts';

describe('the funnel', () => {
  const counts = { targeted: 10, sent: 4, delivered: 3, failed: 1, invalid: 0, cancelled: 0, opened: 0 };

  it('counts expired and capped devices as settled, deferred ones not yet', () => {
    expect(settled(counts)).toBe(4);
    expect(settled({ ...counts, expired: 2, capped: 3, deferred: 1 })).toBe(9);
    expect(progress({ ...counts, expired: 2, capped: 3, deferred: 1 })).toBe(0.9);
    expect(progress({ ...counts, expired: 2, capped: 3, deferred: 0, delivered: 4 })).toBe(1);
  });

  it('has a row per provider the counts hold, web and Huawei only once targeted', () => {
    expect(providerRows({ apns: 1, fcm: 2 }).map((row) => row.key)).toEqual(['apns', 'fcm']);
    expect(providerRows({ hms: 4, apns: 1, webpush: 3, fcm: 2 })).toEqual([
      { key: 'apns', label: 'APNs (iOS)', counts: 1 },
      { key: 'fcm', label: 'FCM (Android)', counts: 2 },
      { key: 'webpush', label: 'Web Push (browsers)', counts: 3 },
      { key: 'hms', label: 'Push Kit (Huawei)', counts: 4 },
    ]);
  });
});
