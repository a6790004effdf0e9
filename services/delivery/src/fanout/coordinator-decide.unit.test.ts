import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type FanoutTaskV2, type NotificationRequestedV2, type VariantDecidedV1 } from '@herald/events';
import type { HeldRequest, Schedule } from '@herald/mongo';
import type { Logger } from '@herald/log';
import { coordinatorHandler, type CoordinatorDeps } from './coordinator.ts';

const logger = { warn: () => {}, debug: () => {}, info: () => {} } as unknown as Logger;
const NOW = Date.parse('2026-12-07T10:00:00Z');

const request: NotificationRequestedV2['data'] = {
  notification_id: 'n-ab',
  title: 'A',
  body: 'a',
  targets: [{ topic: 'deals' }],
  variants: [
    { name: 'A', title: 'A', body: 'a' },
    { name: 'B', title: 'B', body: 'b' },
  ],
  holdout_percent: 10,
  test: { percent: 20, decide_after: 'PT2H', metric: 'open_rate' },
};

/** The coordinator over an in-memory schedule store that fires each schedule once (as ScheduleStore.markFired does). */
function harness() {
  const held = new Map<string, HeldRequest>();
  const schedules = new Map<string, Schedule & { fired_by?: { partition: number; offset: number } }>();
  const deps: CoordinatorDeps = {
    schedules: {
      hold: async (request, items) => {
        if (!held.has(request._id)) held.set(request._id, request);
        for (const item of items) if (!schedules.has(item._id)) schedules.set(item._id, item);
      },
      markFired: async (id, by) => {
        const schedule = schedules.get(id);
        if (schedule === undefined) return false;
        if (schedule.state === 'pending') {
          schedules.set(id, { ...schedule, state: 'fired', fired_by: by });
          return true;
        }
        return schedule.fired_by?.partition === by.partition && schedule.fired_by.offset === by.offset;
      },
      request: async (id) => held.get(id) ?? null,
      cancel: async () => {},
    },
    controls: { cancel: () => {}, isCancelled: () => false },
    ends: async () => ({ devices: [{ partition: 0, high: 5 }, { partition: 1, high: 7 }], topics: [] }) as never,
    waitForTopics: async () => {},
    topicOf: () => ({ id: 'topic-deals' }) as never,
    partitionOf: (_key, count) => count - 1,
    registeredZones: async () => [],
    defaultTimezone: async () => undefined,
    variantCounts: async () => ({ A: { delivered: 1000, opened: 200 }, B: { delivered: 1000, opened: 250 } }),
    clock: { now: () => NOW },
    maxAgeMs: 86_400_000,
    logger,
  };
  return { deps, schedules, handle: coordinatorHandler(deps) };
}

describe('an A/B send with a test, through the coordinator', () => {
  it('holds its decision at decide_after, then decides once and plans the remainder with the winner', async () => {
    const { schedules, handle } = harness();
    const requested = createEvent('NotificationRequested', request, { project_id: 'p', now: new Date(NOW) });
    const test = await handle([{ event: requested, topic: TOPICS.notificationEvents, partition: 0, offset: 1 }]);
    expect(test.every(({ event }) => event.type === 'FanoutTask' && (event.data).split_phase === 'test')).toBe(true);
    expect((test[0]!.event.data as FanoutTaskV2['data']).message?.split).toEqual({ variants: request.variants, holdout_percent: 10, test_percent: 20 });
    expect(schedules.get('n-ab#decide')?.due_at.toISOString()).toBe('2026-12-07T12:00:00.000Z');

    const due = createEvent('NotificationDue', { notification_id: 'n-ab', fanout_id: 'n-ab#decide', due_at: '2026-12-07T12:00:00.000Z' }, { project_id: 'p' });
    const decided = await handle([{ event: due, topic: TOPICS.notificationEvents, partition: 0, offset: 9 }]);
    const [decision, ...remainder] = decided;
    expect(decision!.event.type).toBe('VariantDecided');
    expect((decision!.event as VariantDecidedV1).data).toMatchObject({ chosen: 'B', reason: 'significant', remainder_fanout_id: 'n-ab#remainder' });
    expect(remainder.length).toBeGreaterThan(0);
    for (const { event } of remainder) {
      const task = event.data as FanoutTaskV2['data'];
      expect(task).toMatchObject({ fanout_id: 'n-ab#remainder', split_phase: 'remainder', requested_at: '2026-12-07T12:00:00.000Z' });
      expect(task.message?.split?.winner).toBe(1);
    }

    // The same record again (a restart before its commit) decides the same; another announcement of the fired schedule is dropped.
    expect(await handle([{ event: due, topic: TOPICS.notificationEvents, partition: 0, offset: 9 }])).toHaveLength(decided.length);
    expect(await handle([{ event: due, topic: TOPICS.notificationEvents, partition: 0, offset: 12 }])).toEqual([]);
  });

  it('holds no decision without a test', async () => {
    const { schedules, handle } = harness();
    const { test: _test, ...plain } = request;
    await handle([{ event: createEvent('NotificationRequested', plain, { project_id: 'p', now: new Date(NOW) }), topic: TOPICS.notificationEvents, partition: 0, offset: 1 }]);
    expect(schedules.size).toBe(0);
  });
});
