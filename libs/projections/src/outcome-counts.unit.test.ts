import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { foldWithCounts } from './apply-counted.ts';
import { type CounterDocument, foldCounts, hoursUpTo, type NotificationReportDocument, notificationReportsProjection, outcomeCountDeltas, outcomesCountKey, outcomesOver, sumCounts } from '@herald/read-models';

type Outcome = 'delivered' | 'failed' | 'invalid' | 'cancelled';
const reported = (notification: string, batch: string, outcomes: Outcome[], at: string, partition: number, offset: number, project = 'p'): ConsumedEvent => ({
  event: createEvent(
    'DeliveryReported',
    { notification_id: notification, batch_id: batch, provider: 'apns' as const, results: outcomes.map((outcome, n) => ({ device_id: `d${n}`, outcome })) },
    { project_id: project, now: new Date(at) },
  ),
  topic: TOPICS.notificationEvents,
  partition,
  offset,
});
const opened = (notification: string, at: string, partition: number, offset: number): ConsumedEvent => ({
  event: createEvent('NotificationOpened', { notification_id: notification, device_id: 'd0' }, { project_id: 'p', now: new Date(at) }),
  topic: TOPICS.notificationEvents,
  partition,
  offset,
});

/** The reports folded from `start`, and the counters after them (from `counters`). */
function fold(records: ConsumedEvent[], start = new Map<string, NotificationReportDocument>(), counters = new Map<string, CounterDocument>()) {
  const { changed, deltas } = foldWithCounts(notificationReportsProjection, records, start);
  const next = new Map([...counters, ...foldCounts(counters, deltas)]);
  return { reports: new Map([...start, ...changed]), counters: next };
}
const summed = (counters: Map<string, CounterDocument>, project = 'p') => sumCounts([...counters.values()].filter((doc) => doc.project_id === project));

describe("a project's outcomes per hour, counted from its notifications' reports", () => {
  it('counts outcomes and opens in the hour they happened, per project', () => {
    const { counters } = fold([
      reported('n1', 'n1:a', ['delivered', 'delivered', 'failed'], '2026-05-01T10:15:00Z', 0, 0),
      reported('n2', 'n2:a', ['invalid', 'cancelled'], '2026-05-01T10:59:59Z', 0, 1),
      opened('n1', '2026-05-01T11:00:00Z', 0, 2),
      reported('n3', 'n3:a', ['delivered'], '2026-05-01T10:20:00Z', 1, 0),
      reported('n4', 'n4:a', ['delivered'], '2026-05-01T10:20:00Z', 1, 1, 'other'),
    ]);
    const hours = ['2026-05-01T09', '2026-05-01T10', '2026-05-01T11'];
    const { totals, hours: series } = outcomesOver(summed(counters), hours);
    expect(totals).toEqual({ delivered: 3, failed: 1, invalid: 1, cancelled: 1, expired: 0, capped: 0, opened: 1 });
    expect(series).toEqual([
      { hour: '2026-05-01T10', delivered: 3, failed: 1, invalid: 1, cancelled: 1, expired: 0, capped: 0, opened: 0 },
      { hour: '2026-05-01T11', delivered: 0, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 1 },
    ]);
    expect(outcomesOver(summed(counters), ['2026-05-01T11']).totals.delivered).toBe(0);
    expect(outcomesOver(summed(counters, 'other'), hours).totals.delivered).toBe(1);
    // One counter document per (hour, project, partition).
    expect([...counters.keys()].sort()).toEqual([`${outcomesCountKey('2026-05-01T10')}|other|1`, `${outcomesCountKey('2026-05-01T10')}|p|0`, `${outcomesCountKey('2026-05-01T10')}|p|1`, `${outcomesCountKey('2026-05-01T11')}|p|0`]);
  });

  it('counts a batch reported again once, however late, and a record applied again not at all', () => {
    const first = fold([reported('n1', 'n1:a', ['delivered'], '2026-05-01T10:00:00Z', 0, 4)]);
    const many = Array.from({ length: 6_000 }, (_, n) => reported(`m${n}`, `m${n}:a`, ['delivered'], '2026-05-01T10:01:00Z', 0, 5 + n));
    const later = fold([...many, reported('n1', 'n1:a', ['delivered'], '2026-05-01T11:05:00Z', 0, 9_000)], first.reports, first.counters);
    expect(outcomesOver(summed(later.counters), ['2026-05-01T10', '2026-05-01T11']).totals.delivered).toBe(6_001);
    // The first chunk again (a crash before its commit), folded from what the store held before it: counters unchanged.
    const again = fold([reported('n1', 'n1:a', ['delivered'], '2026-05-01T10:00:00Z', 0, 4)], new Map(), later.counters);
    expect(outcomesOver(summed(again.counters), ['2026-05-01T10', '2026-05-01T11']).totals.delivered).toBe(6_001);
  });

  it('adds what a report gained, in the hour of the event that changed it (pure)', () => {
    const before = { project_id: 'p', updated_at: '2026-05-01T10:00:00Z', timeline: [{ delivered: 2, opened: 1 }] };
    const after = { project_id: 'p', updated_at: '2026-05-01T12:30:00Z', timeline: [{ delivered: 2, opened: 1 }, { delivered: 0, opened: 1 }] };
    expect(outcomeCountDeltas(before, after)).toEqual([{ project_id: 'p', key: outcomesCountKey('2026-05-01T12'), by: { opened: 1 } }]);
    expect(outcomeCountDeltas(after, after)).toEqual([]);
    expect(outcomeCountDeltas(undefined, before)).toEqual([{ project_id: 'p', key: outcomesCountKey('2026-05-01T10'), by: { delivered: 2, opened: 1 } }]);
  });

  it('names the 24 hours up to now, oldest first', () => {
    const hours = hoursUpTo(Date.parse('2026-05-02T03:10:00Z'), 24);
    expect(hours).toHaveLength(24);
    expect([hours[0], hours[23]]).toEqual(['2026-05-01T04', '2026-05-02T03']);
  });
});
