import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signatureHeader, signPayload, verifySignature } from './signature.ts';
import { backoffDelay, retry, type Clock } from '@herald/runtime';
import { webhookRetry, type RetryPolicy } from './backoff.ts';
import { flushDelay } from './batching.ts';

describe('signatures', () => {
  const body = '{"events":[{"id":"e1"}]}';
  it('is HMAC-SHA256 over "<timestamp>.<body>", hex (the documented recipe)', () => {
    expect(signPayload('whsec_a', 1_700_000_000, body)).toBe(createHmac('sha256', 'whsec_a').update(`1700000000.${body}`).digest('hex'));
  });

  it('carries one v1= entry per valid secret; either verifies during a rotation', () => {
    const header = signatureHeader(['new', 'old'], 1_700_000_000, body);
    expect(header.split(', ')).toHaveLength(2);
    for (const secret of ['new', 'old']) expect(verifySignature({ secret, timestamp: '1700000000', signature: header, body, nowS: 1_700_000_010 })).toBe(true);
    expect(verifySignature({ secret: 'other', timestamp: '1700000000', signature: header, body, nowS: 1_700_000_010 })).toBe(false);
  });

  it('refuses an altered body, an old timestamp and garbage', () => {
    const header = signatureHeader(['s'], 1_700_000_000, body);
    expect(verifySignature({ secret: 's', timestamp: '1700000000', signature: header, body: `${body} `, nowS: 1_700_000_000 })).toBe(false);
    expect(verifySignature({ secret: 's', timestamp: '1700000000', signature: header, body, nowS: 1_700_000_301 })).toBe(false);
    expect(verifySignature({ secret: 's', timestamp: 'x', signature: header, body, nowS: 1_700_000_000 })).toBe(false);
    expect(verifySignature({ secret: 's', timestamp: '1700000000', signature: 'v1=zz, v0=12', body, nowS: 1_700_000_000 })).toBe(false);
  });
});

describe('back-off', () => {
  const policy: RetryPolicy = { minMs: 500, maxMs: 60_000, deadLetterAfterMs: 600_000 };
  const { backoff, failureWindowMs } = webhookRetry(policy);

  it('doubles from min up to max, with full jitter never below min', () => {
    expect([1, 2, 3, 4, 8, 20, 1_000].map((attempt) => backoffDelay(attempt, backoff!, 0.9999999))).toEqual([500, 1_000, 2_000, 4_000, 60_000, 60_000, 60_000]);
    expect(backoffDelay(5, backoff!, 0)).toBe(500);
    expect(backoffDelay(5, backoff!, 0.5)).toBe(4_250);
  });

  it('retries until the dead-letter time, the last wait landing on it', async () => {
    let now = 1_000_000;
    const waits: number[] = [];
    const clock: Clock = { now: () => now, random: () => 0.99, sleep: (ms) => ((now += ms), waits.push(ms), Promise.resolve()) };
    let attempts = 0;
    const failing = () => ((attempts += 1), Promise.reject(new Error('503')));
    await expect(retry(failing, { backoff, failureWindowMs, clock })).rejects.toThrow('503');
    expect(failureWindowMs).toBe(600_000);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(600_000);
    expect(waits.slice(0, 4)).toEqual([500, 995, 1_985, 3_965]);
    expect(Math.max(...waits)).toBeLessThanOrEqual(60_000);
    expect(attempts).toBe(waits.length + 1);
  });
});

describe('batching', () => {
  it('sends at N events or once the oldest has waited T ms', () => {
    const policy = { maxEvents: 10, maxWaitMs: 1_000, maxBytes: 1_000 };
    expect(flushDelay(0, undefined, 5_000, policy)).toBeUndefined();
    expect(flushDelay(10, 4_900, 5_000, policy)).toBe(0);
    expect(flushDelay(3, 4_900, 5_000, policy)).toBe(900);
    expect(flushDelay(3, 3_000, 5_000, policy)).toBe(0);
    expect(flushDelay(1, 5_000, 5_000, { maxEvents: 1, maxWaitMs: 0, maxBytes: 1_000 })).toBe(0);
    expect(flushDelay(3, 4_900, 5_000, policy, 999)).toBe(900);
    expect(flushDelay(3, 4_900, 5_000, policy, 1_000)).toBe(0);
  });
});
