import { describe, expect, it } from 'vitest';
import { createEvent, type ConsumedEvent } from '@herald/events';
import { createLogger } from '@herald/log';
import type { Clock } from '@herald/retry';
import { liveActivityHandler, type LiveActivityPorts } from './live-activity-handler.ts';

const T0 = Date.parse('2026-12-07T10:00:00Z');
const TOKEN = { id: 'tok-1', device_id: 'd1', token: 'aa' };

/** A clock that moves only when slept on; what was slept is kept. */
function fakeClock() {
  const state = { now: T0 + 100, slept: [] as number[] };
  const clock: Clock = {
    now: () => state.now,
    sleep: async (ms) => {
      state.slept.push(ms);
      state.now += ms;
    },
    random: () => 0.5,
  };
  return { clock, state };
}

/** Ports over memory; no APNs credentials, so anything sent fails NoApnsCredentials (the send itself is the APNs client's e2e). */
function fakePorts(over: Partial<LiveActivityPorts> = {}) {
  const calls: string[] = [];
  const ports: LiveActivityPorts = {
    tokensOf: async () => [TOKEN],
    removeToken: async () => undefined,
    removeUpdateTokens: async (_project, activity) => void calls.push(`remove ${activity}`),
    removeUpdateTokensAt: async (_project, activity, at) => void calls.push(`remove ${activity} at ${at.toISOString()}`),
    report: async (_project, id, outcomes) => void calls.push(`report ${id} ${outcomes.map((row) => row.reason ?? row.outcome).join(',')}`),
    reportCoalesced: async (_project, id, into, tokens) => void calls.push(`coalesced ${id} into ${into} (${tokens})`),
    newerUpdate: async () => undefined,
    lastSentAt: async () => undefined,
    apns: async () => undefined,
    ...over,
  };
  return { ports, calls };
}

const request = (data: { event: 'update' | 'end'; dismissal_date?: number }): ConsumedEvent => ({
  event: createEvent('LiveActivityRequested', { request_id: 'r1', activity_id: 'act', priority: 10, timestamp: 5, content_state: { n: 1 }, ...data }, { project_id: 'p', now: new Date(T0) }),
  topic: 'herald.notification-events',
  partition: 0,
  offset: 0,
});

const settings = { maxAgeMs: 3_600_000, attempts: 1, backoff: { minMs: 1, maxMs: 1 }, updateIntervalMs: 1_000 };
const logger = createLogger({ name: 'test', level: 'silent' });

describe('liveActivityHandler', () => {
  it('coalesces an update a newer one followed within the interval: reported, never sent', async () => {
    const { ports, calls } = fakePorts({ newerUpdate: async () => ({ id: 'r2', createdAtMs: T0 + 300 }), apns: async () => expect.fail('a coalesced update is not sent') });
    const out = await liveActivityHandler(ports, settings, fakeClock().clock, logger)([request({ event: 'update' })]);
    expect(calls).toEqual(['coalesced r1 into r2 (1)']);
    expect(out[0]!.event).toMatchObject({ type: 'LiveActivityReported', version: 2, data: { request_id: 'r1', outcomes: [], coalesced_into: 'r2', coalesced_tokens: 1 } });
  });

  it('holds an update until the interval since the last push passed, then asks again and sends', async () => {
    const { clock, state } = fakeClock();
    let asked = 0;
    const { ports, calls } = fakePorts({ lastSentAt: async () => T0, newerUpdate: async () => void (asked += 1) });
    await liveActivityHandler(ports, settings, clock, logger)([request({ event: 'update' })]);
    expect(state.slept).toEqual([900]);
    expect(asked).toBe(2);
    expect(calls).toEqual(['report r1 NoApnsCredentials']);
  });

  it("removes an ended activity's update tokens now, or at a future dismissal date", async () => {
    const now = fakePorts();
    await liveActivityHandler(now.ports, settings, fakeClock().clock, logger)([request({ event: 'end' })]);
    expect(now.calls).toEqual(['report r1 NoApnsCredentials', 'remove act']);
    const later = fakePorts();
    const dismissal = Math.floor(T0 / 1000) + 3_600;
    await liveActivityHandler(later.ports, settings, fakeClock().clock, logger)([request({ event: 'end', dismissal_date: dismissal })]);
    expect(later.calls).toEqual(['report r1 NoApnsCredentials', `remove act at ${new Date(dismissal * 1000).toISOString()}`]);
  });
});
