import { describe, expect, it } from 'vitest';
import { apnsPayloadBytes, buildApnsPayload } from './apns-payload.ts';
import { fitsProviderLimits } from './provider-limits.ts';

const base = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: '' };

/** A body that makes the APNs payload exactly `target` bytes. */
function bodyForApnsBytes(target: number): string {
  return 'x'.repeat(target - apnsPayloadBytes(buildApnsPayload(base)));
}

describe('fitsProviderLimits', () => {
  it('accepts an ordinary message', () => {
    expect(fitsProviderLimits({ ...base, body: 'Ends tonight', link_to: 'shop://sale', group: 'promos' })).toEqual([]);
  });

  it('accepts exactly 4096 bytes and refuses 4097, naming the provider and the size', () => {
    expect(fitsProviderLimits({ ...base, body: bodyForApnsBytes(4096) }, ['apns'])).toEqual([]);
    expect(fitsProviderLimits({ ...base, body: bodyForApnsBytes(4097) }, ['apns'])).toEqual([
      'notification must fit in 4096 bytes as an APNs payload (it takes 4097)',
    ]);
  });

  it('reports each provider the message is too large for', () => {
    const problems = fitsProviderLimits({ ...base, body: 'é'.repeat(2100) });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/APNs/);
    expect(problems[1]).toMatch(/^notification must fit in 4096 bytes as an FCM message \(it takes \d+\)$/);
    expect(problems[2]).toMatch(/^notification must fit in 3993 bytes as a Web Push plaintext \(it takes \d+;/);
    expect(problems[3]).toMatch(/^notification must fit in 4096 bytes as a Push Kit message \(it takes \d+\)$/);
  });

  it('refuses data that only Push Kit’s escaped data string makes too large', () => {
    const quoted = { ...base, data: { note: '"'.repeat(1000) } };
    expect(fitsProviderLimits(quoted, ['apns', 'fcm', 'webpush'])).toEqual([]);
    expect(fitsProviderLimits(quoted)).toEqual([expect.stringMatching(/^notification must fit in 4096 bytes as a Push Kit message \(it takes 4\d{3}\)$/)]);
  });
});
