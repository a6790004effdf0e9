import { describe, expect, it } from 'vitest';
import { createEvent, type DeliveryBatchV2 } from '@herald/events';
import { handOffBatch, retryWaitMs, splitOpen } from './hand-off.ts';
import type { AttemptedResult } from './retry.ts';

const batch: DeliveryBatchV2 = createEvent<'DeliveryBatch'>(
  'DeliveryBatch',
  {
    batch_id: 'n-1:apns:2:5',
    notification_id: 'n-1',
    provider: 'apns',
    sequence: 5,
    message: { title: 't', body: 'b' },
    devices: ['a', 'b', 'c'].map((id) => ({ device_id: id, token: id.repeat(64) })),
  },
  { project_id: 'p-1', correlation_id: 'c-1' },
);

const results: AttemptedResult[] = [
  { device_id: 'a', outcome: 'delivered', attempts: 1 },
  { device_id: 'b', outcome: 'retryable', reason: 'InternalServerError', attempts: 1 },
  { device_id: 'c', outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 3_000, attempts: 1 },
];

describe('hand-off to the retry lane', () => {
  it('splits a first send into what to report now and what is still open', () => {
    const { settled, open } = splitOpen(results);
    expect(settled.map((result) => result.device_id)).toEqual(['a']);
    expect(open.map((result) => result.device_id)).toEqual(['b', 'c']);
  });

  it('waits the back-off, or the longest Retry-After', () => {
    expect(retryWaitMs(results.slice(1), 200)).toBe(3_000);
    expect(retryWaitMs(results.slice(1, 2), 200)).toBe(200);
  });

  it('carries the open devices, under the retry id, to the retry topic, with when and how often they were sent', () => {
    const { open } = splitOpen(results);
    const { event, topic } = handOffBatch(batch, open, Date.parse('2026-01-01T00:00:00.000Z'), 3_000);
    expect(topic).toBe('herald.deliveries-retry.apns');
    expect(event).toMatchObject({
      type: 'DeliveryBatch',
      project_id: 'p-1',
      correlation_id: 'c-1',
      data: {
        batch_id: 'n-1+retry:apns:2:5',
        notification_id: 'n-1',
        message: { title: 't', body: 'b' },
        devices: [{ device_id: 'b' }, { device_id: 'c' }],
        retry: { after: '2026-01-01T00:00:03.000Z', sends: 1 },
      },
    });
  });
});
