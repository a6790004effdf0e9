import { describe, expect, it } from 'vitest';
import type { ProviderOutcome } from './push-message.ts';
import { webPushOutcome, type WebPushRawResult } from './webpush-outcome.ts';

const NOW = Date.parse('2025-01-01T00:00:00Z');

const cases: Array<[string, WebPushRawResult, ProviderOutcome]> = [
  ['201 Created', { status: 201, location: 'https://push.example/m/1' }, { outcome: 'delivered', providerMessageId: 'https://push.example/m/1' }],
  ['201 without Location', { status: 201 }, { outcome: 'delivered' }],
  ['404 Not Found', { status: 404 }, { outcome: 'token-invalid', reason: 'SubscriptionGone' }],
  ['410 Gone', { status: 410 }, { outcome: 'token-invalid', reason: 'SubscriptionGone' }],
  ['413 Payload Too Large', { status: 413 }, { outcome: 'rejected', reason: 'PayloadTooLarge' }],
  ['400 Bad Request', { status: 400 }, { outcome: 'rejected', reason: 'VapidRejected' }],
  ['401 Unauthorized', { status: 401 }, { outcome: 'rejected', reason: 'VapidRejected' }],
  ['403 Forbidden', { status: 403 }, { outcome: 'rejected', reason: 'VapidRejected' }],
  ['429 with Retry-After seconds', { status: 429, retryAfter: '30' }, { outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 30_000 }],
  ['429 with an HTTP date', { status: 429, retryAfter: 'Wed, 01 Jan 2025 00:01:00 GMT' }, { outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 60_000 }],
  ['429 without Retry-After', { status: 429 }, { outcome: 'retryable', reason: 'TooManyRequests' }],
  ['500', { status: 500 }, { outcome: 'retryable', reason: 'ServiceUnavailable' }],
  ['503 with Retry-After', { status: 503, retryAfter: '5' }, { outcome: 'retryable', reason: 'ServiceUnavailable', retryAfterMs: 5000 }],
  ['timeout', { error: 'ETIMEDOUT' }, { outcome: 'retryable', reason: 'NetworkError: ETIMEDOUT' }],
  ['no answer at all', {}, { outcome: 'retryable', reason: 'NetworkError' }],
  ['another 4xx', { status: 415 }, { outcome: 'rejected', reason: 'HTTP 415' }],
];

describe('webPushOutcome', () => {
  it.each(cases)('%s', (_name, raw, expected) => {
    expect(webPushOutcome(raw, NOW)).toEqual(expected);
  });
});
