import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signatureHeader, signPayload, verifySignature } from './signature.ts';
import { backoffMs, retryDecision, type RetryPolicy } from './backoff.ts';
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
  it('doubles from min up to max, with full jitter never below min', () => {
    expect([1, 2, 3, 4, 8, 20, 1_000].map((attempt) => backoffMs(attempt, policy, 0.9999999))).toEqual([500, 1_000, 2_000, 4_000, 60_000, 60_000, 60_000]);
    expect(backoffMs(5, policy, 0)).toBe(500);
    expect(backoffMs(5, policy, 0.5)).toBe(4_250);
  });

  it('retries until the dead-letter time, the last wait landing on it', () => {
    const first = 1_000_000;
    expect(retryDecision(3, first, first + 10_000, policy, 0.5)).toEqual({ kind: 'retry', waitMs: 1_250 });
    expect(retryDecision(30, first, first + 599_000, policy, 0.99)).toEqual({ kind: 'retry', waitMs: 1_000 });
    expect(retryDecision(31, first, first + 600_000, policy, 0.5)).toEqual({ kind: 'dead-letter' });
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
