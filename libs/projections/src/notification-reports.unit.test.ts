import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import { foldRecords } from './apply-projection.ts';
import { bucketOf, type NotificationReportDocument, notificationReportsProjection } from '@herald/read-models';

type Result = { outcome: 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'deferred'; reason?: string; device_id?: string };
const reported = (batchId: string, provider: 'apns' | 'fcm', results: Result[], at: string, offset: number, settlesDeferral = false) => ({
  event: createEvent(
    'DeliveryReported',
    { notification_id: 'n1', batch_id: batchId, provider, results: results.map((result, n) => ({ device_id: `${batchId}-${n}`, ...result })), ...(settlesDeferral ? { settles_deferral: true } : {}) },
    { project_id: 'p', now: new Date(at) },
  ),
  topic: TOPICS.notificationEvents,
  partition: 0,
  offset,
});
const opened = (at: string, offset: number) => ({
  event: createEvent('NotificationOpened', { notification_id: 'n1', device_id: 'x' }, { project_id: 'p', now: new Date(at) }),
  topic: TOPICS.notificationEvents,
  partition: 0,
  offset,
});
const fold = (records: ReadonlyArray<ReturnType<typeof reported> | ReturnType<typeof opened>>, start = new Map<string, NotificationReportDocument>()) => foldRecords(notificationReportsProjection, records, start);

describe('notification reports', () => {
  it("counts a deferred batch's released devices once, also when its first report counted others", () => {
    const at = '2026-05-01T10:00:00Z';
    const doc = fold([
      reported('n1:fcm:0', 'fcm', [{ outcome: 'delivered' }, { outcome: 'deferred', device_id: 'quiet' }], at, 0),
      reported('n1:fcm:1', 'fcm', [{ outcome: 'deferred', device_id: 'later' }], at, 1),
      reported('n1:fcm:0', 'fcm', [{ outcome: 'delivered', device_id: 'quiet' }], '2026-05-01T10:30:00Z', 2, true),
      reported('n1:fcm:1', 'fcm', [{ outcome: 'failed', reason: 'AttemptsExhausted', device_id: 'later' }], '2026-05-01T10:30:01Z', 3, true),
      // A release reported twice (a sender crash): counted once.
      reported('n1:fcm:0', 'fcm', [{ outcome: 'delivered', device_id: 'quiet' }], '2026-05-01T10:30:02Z', 4, true),
    ]).get('n1')!;
    const totals = doc.timeline.reduce<Record<string, number>>((sum, bucket) => {
      for (const [field, count] of Object.entries(bucket)) if (typeof count === 'number' && field !== 'at') sum[field] = (sum[field] ?? 0) + count;
      return sum;
    }, {});
    expect(totals).toMatchObject({ delivered: 2, failed: 1 });
    expect(doc.failures).toEqual([{ provider: 'fcm', outcome: 'failed', reason: 'AttemptsExhausted', count: 1 }]);
  });

  it('groups failures by provider, outcome and reason, most frequent first', () => {
    const doc = fold([
      reported('n1:apns:0', 'apns', [{ outcome: 'delivered' }, { outcome: 'invalid', reason: 'BadDeviceToken' }, { outcome: 'failed', reason: 'AttemptsExhausted' }], '2026-05-01T10:00:00Z', 0),
      reported('n1:fcm:0', 'fcm', [{ outcome: 'invalid', reason: 'UNREGISTERED' }, { outcome: 'invalid', reason: 'UNREGISTERED' }, { outcome: 'failed' }], '2026-05-01T10:00:01Z', 1),
      reported('n1:apns:0', 'apns', [{ outcome: 'invalid', reason: 'BadDeviceToken' }], '2026-05-01T10:00:02Z', 2),
    ]).get('n1')!;
    expect(doc.failures).toEqual([
      { provider: 'fcm', outcome: 'invalid', reason: 'UNREGISTERED', count: 2 },
      { provider: 'fcm', outcome: 'failed', reason: '', count: 1 },
      { provider: 'apns', outcome: 'failed', reason: 'AttemptsExhausted', count: 1 },
      { provider: 'apns', outcome: 'invalid', reason: 'BadDeviceToken', count: 1 },
    ]);
    expect(doc.reported_batches).toEqual(['n1:apns:0', 'n1:fcm:0']);
  });

  it('buckets outcomes and opens by minute, then hour, then day after the first outcome', () => {
    const doc = fold([
      reported('b1', 'apns', [{ outcome: 'delivered' }, { outcome: 'delivered' }], '2026-05-01T10:00:10Z', 0),
      reported('b2', 'apns', [{ outcome: 'delivered' }], '2026-05-01T10:00:50Z', 1),
      opened('2026-05-01T10:01:05Z', 2),
      opened('2026-05-01T13:30:00Z', 3),
      opened('2026-05-09T13:30:00Z', 4),
    ]).get('n1')!;
    expect(doc.timeline.map(({ at, span, delivered, opened: opens }) => [at, span, delivered, opens])).toEqual([
      ['2026-05-01T10:00:00.000Z', 'minute', 3, 0],
      ['2026-05-01T10:01:00.000Z', 'minute', 0, 1],
      ['2026-05-01T13:00:00.000Z', 'hour', 0, 1],
      ['2026-05-09T00:00:00.000Z', 'day', 0, 1],
    ]);
  });

  it('names the bucket span by age', () => {
    expect(bucketOf('2026-05-01T11:59:59Z', '2026-05-01T10:00:00Z')).toEqual({ at: '2026-05-01T11:59:00.000Z', span: 'minute' });
    expect(bucketOf('2026-05-01T12:00:00Z', '2026-05-01T10:00:00Z')).toEqual({ at: '2026-05-01T12:00:00.000Z', span: 'hour' });
    expect(bucketOf('2026-05-08T10:00:00Z', '2026-05-01T10:00:00Z')).toEqual({ at: '2026-05-08T00:00:00.000Z', span: 'day' });
  });
});
