import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import type { Logger } from '@herald/log';
import { coordinatorHandler, type CoordinatorDeps } from './coordinator.ts';

const DAY_MS = 86_400_000;

function deps(now: number, warnings: Array<[unknown, string]>): CoordinatorDeps {
  const logger = { warn: (fields: unknown, message: string) => warnings.push([fields, message]), debug: () => {}, info: () => {} } as unknown as Logger;
  return {
    schedules: { hold: async () => {}, markFired: async () => true, request: async () => null, cancel: async () => {} },
    controls: { cancel: () => {}, isCancelled: () => false },
    ends: async () => ({ devices: [{ partition: 0, high: 0 }], topics: [] }) as never,
    waitForTopics: async () => {},
    topicOf: () => undefined,
    partitionOf: () => 0,
    registeredZones: async () => [],
    defaultTimezone: async () => undefined,
    clock: { now: () => now },
    maxAgeMs: DAY_MS,
    logger,
  };
}

describe('the fan-out coordinator, taking requests too old to send', () => {
  it('expires each with an event of its own and logs the chunk once, not once per request', async () => {
    const now = Date.parse('2026-05-03T00:00:00Z');
    const warnings: Array<[unknown, string]> = [];
    const old = ['n1', 'n2', 'n3'].map((id) =>
      createEvent('NotificationRequested', { notification_id: id, title: 't', body: 'b', targets: [{ token: 'a'.repeat(64) }] }, { project_id: 'p', now: new Date(now - 2 * DAY_MS) }),
    );
    const out = await coordinatorHandler(deps(now, warnings))(old.map((event, offset) => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset })));
    expect(out.map(({ event }) => [event.type, (event.data as { notification_id: string }).notification_id])).toEqual([
      ['NotificationExpired', 'n1'],
      ['NotificationExpired', 'n2'],
      ['NotificationExpired', 'n3'],
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]![0]).toMatchObject({ count: 3, first: { notification_id: 'n1' }, last: { notification_id: 'n3' }, max_age_ms: DAY_MS });
  });
});
