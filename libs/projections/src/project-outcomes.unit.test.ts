import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import { foldRecords } from './apply-projection.ts';
import { KEPT_HOURS, RECENT_BATCHES, outcomesSince, projectOutcomesId, projectOutcomesProjection, projectOutcomesRange, type ProjectOutcomesDocument } from './project-outcomes.ts';

type Outcome = 'delivered' | 'failed' | 'invalid' | 'cancelled';
const reported = (batchId: string, outcomes: Outcome[], at: string, partition: number, offset: number, project = 'p') => ({
  event: createEvent(
    'DeliveryReported',
    { notification_id: 'n', batch_id: batchId, provider: 'apns' as const, results: outcomes.map((outcome, n) => ({ device_id: `d${n}`, outcome })) },
    { project_id: project, now: new Date(at) },
  ),
  topic: TOPICS.notificationEvents,
  partition,
  offset,
});
const opened = (at: string, partition: number, offset: number) => ({
  event: createEvent('NotificationOpened', { notification_id: 'n', device_id: 'd0' }, { project_id: 'p', now: new Date(at) }),
  topic: TOPICS.notificationEvents,
  partition,
  offset,
});
const fold = (records: ReadonlyArray<ReturnType<typeof reported> | ReturnType<typeof opened>>, start = new Map<string, ProjectOutcomesDocument>()) => foldRecords(projectOutcomesProjection, records, start);

describe('project outcomes per hour', () => {
  it('counts outcomes and opens by hour, in one document per project and partition', () => {
    const docs = fold([
      reported('b1', ['delivered', 'delivered', 'failed'], '2026-05-01T10:15:00Z', 0, 0),
      reported('b2', ['invalid', 'cancelled'], '2026-05-01T10:59:59Z', 0, 1),
      opened('2026-05-01T11:00:00Z', 0, 2),
      reported('b3', ['delivered'], '2026-05-01T10:20:00Z', 1, 0),
      reported('b4', ['delivered'], '2026-05-01T10:20:00Z', 1, 1, 'other'),
    ]);
    expect([...docs.keys()].sort()).toEqual([projectOutcomesId('other', 1), projectOutcomesId('p', 0), projectOutcomesId('p', 1)]);
    expect(docs.get(projectOutcomesId('p', 0))!.hours).toEqual([
      { hour: '2026-05-01T10', delivered: 2, failed: 1, invalid: 1, cancelled: 1, expired: 0, capped: 0, opened: 0 },
      { hour: '2026-05-01T11', delivered: 0, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 1 },
    ]);
    const { totals, hours } = outcomesSince([...docs.values()].filter((doc) => doc.project_id === 'p'), '2026-05-01T10');
    expect(totals).toEqual({ delivered: 3, failed: 1, invalid: 1, cancelled: 1, expired: 0, capped: 0, opened: 1 });
    expect(hours.map((item) => [item.hour, item.delivered])).toEqual([['2026-05-01T10', 3], ['2026-05-01T11', 0]]);
    expect(outcomesSince([...docs.values()], '2026-05-01T11').totals.delivered).toBe(0);
  });

  it('counts a batch reported twice once, and skips records it already reflects', () => {
    const once = fold([reported('b1', ['delivered'], '2026-05-01T10:00:00Z', 0, 4)]);
    expect(fold([reported('b1', ['delivered'], '2026-05-01T10:05:00Z', 0, 9)], once).get(projectOutcomesId('p', 0))!.hours[0]!.delivered).toBe(1);
    expect(fold([reported('b9', ['delivered'], '2026-05-01T10:05:00Z', 0, 4)], once).size).toBe(0);
  });

  it(`remembers the last ${RECENT_BATCHES} batches, not every batch of ${KEPT_HOURS} hours: the document stays bounded under one-device sends`, () => {
    const many = Array.from({ length: RECENT_BATCHES + 500 }, (_, n) => reported(`b${n}`, ['delivered'], '2026-05-01T10:00:00Z', 0, n));
    const doc = fold(many).get(projectOutcomesId('p', 0))!;
    expect(doc.hours).toEqual([{ hour: '2026-05-01T10', delivered: RECENT_BATCHES + 500, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 0 }]);
    expect(doc.recent_batches).toHaveLength(RECENT_BATCHES);
    expect(doc.recent_batches!.at(-1)).toBe(`b${RECENT_BATCHES + 499}`);
    const next = RECENT_BATCHES + 500;
    const start = new Map([[doc._id, doc]]);
    // A repeat of a batch still remembered counts once; one older than the window counts again (the documented bound).
    const again = fold([reported(`b${RECENT_BATCHES + 499}`, ['delivered'], '2026-05-01T10:01:00Z', 0, next), reported('b0', ['delivered'], '2026-05-01T10:01:00Z', 0, next + 1)], start);
    expect(again.get(doc._id)!.hours[0]!.delivered).toBe(RECENT_BATCHES + 501);
  });

  it('takes over the batch lists of documents written before recent_batches, and drops them from the hours', () => {
    const old: ProjectOutcomesDocument = {
      _id: projectOutcomesId('p', 0),
      project_id: 'p',
      partition: 0,
      position: { partition: 0, offset: 1 },
      updated_at: '2026-05-01T10:00:00Z',
      hours: [{ hour: '2026-05-01T10', delivered: 2, failed: 0, invalid: 0, cancelled: 0, opened: 0, batches: ['b1', 'b2'] }],
    };
    const docs = fold([reported('b2', ['delivered'], '2026-05-01T10:05:00Z', 0, 2), reported('b3', ['delivered'], '2026-05-01T10:05:00Z', 0, 3)], new Map([[old._id, old]]));
    const doc = docs.get(old._id)!;
    expect(doc.hours).toEqual([{ hour: '2026-05-01T10', delivered: 3, failed: 0, invalid: 0, cancelled: 0, opened: 0 }]);
    expect(doc.recent_batches).toEqual(['b1', 'b2', 'b3']);
  });

  it(`keeps only the newest ${KEPT_HOURS} hours`, () => {
    const docs = fold([
      reported('old', ['delivered'], '2026-05-01T00:00:00Z', 0, 0),
      reported('kept', ['delivered'], '2026-05-01T01:00:00Z', 0, 1),
      reported('new', ['delivered'], '2026-05-03T00:30:00Z', 0, 2),
    ]);
    expect(docs.get(projectOutcomesId('p', 0))!.hours.map((item) => item.hour)).toEqual(['2026-05-01T01', '2026-05-03T00']);
  });

  it("finds a project's documents by an _id range that excludes other projects", () => {
    const range = projectOutcomesRange('p');
    const inRange = (id: string) => id >= range.$gte && id < range.$lt;
    expect([projectOutcomesId('p', 0), projectOutcomesId('p', 11)].every(inRange)).toBe(true);
    expect([projectOutcomesId('p2', 0), projectOutcomesId('o', 0), 'p', 'p}'].some(inRange)).toBe(false);
  });
});
