import { describe, expect, it } from 'vitest';
import type { FanoutTaskV1 } from '@herald/events';
import { decideTask, FIRST_STEP_HEAD_START_MS, headStartWait, paceAfter, planPace, planStep, type TaskProgress } from './task-step.ts';
import type { Page } from '@herald/audience-index';

const start: TaskProgress = { step: 0, sequence: { apns: 0, fcm: 0 }, targeted: { apns: 0, fcm: 0 } };
const page = (count: number, exhausted: boolean, from = 0): Page => ({
  rows: Array.from({ length: count }, (_, n) => ({ ordinal: from + n, device_id: `d${from + n}`, token: `t${from + n}`, platform: (from + n) % 3 === 0 ? 'android' : 'ios' })),
  after: count === 0 ? undefined : from + count - 1,
  exhausted,
  forwards: [],
});
const limits = { maxDevices: 2, maxDeviceBytes: 1_000_000 };

describe('planStep', () => {
  it('cuts a page into batches numbered from the progress and counts what it targeted', () => {
    const plan = planStep(start, page(5, false), limits);
    expect(plan.batches.map((batch) => [batch.provider, batch.sequence, batch.devices.length])).toEqual([['apns', 0, 2], ['apns', 1, 1], ['fcm', 0, 2]]);
    expect(plan.next).toEqual({ step: 1, after: 4, sequence: { apns: 2, fcm: 1 }, targeted: { apns: 3, fcm: 2 } });
    expect(plan.done).toBe(false);
    expect(plan.lane).toBe('campaign');
  });

  it('sends a whole audience that fits its first step in the express lane, and later steps in the campaign lane', () => {
    expect(planStep(start, page(3, true), limits).lane).toBe('express');
    const later = planStep({ ...start, step: 2, after: 9 }, page(3, true, 10), limits);
    expect(later.lane).toBe('campaign');
    expect(later.next.after).toBe(12);
  });

  it('keeps its place when a page found nothing', () => {
    expect(planStep({ ...start, step: 1, after: 7 }, { rows: [], after: undefined, exhausted: true, forwards: [] }, limits).next.after).toBe(7);
  });
});

describe('decideTask', () => {
  const task = { requested_at: '2026-11-24T00:00:00.000Z' };
  it('stops a cancelled notification, then one older than the maximum age', () => {
    const now = Date.parse(task.requested_at) + 1_000;
    expect(decideTask(task, now, 60_000, true)).toEqual({ kind: 'stop', reason: 'cancelled' });
    expect(decideTask(task, now, 500, false)).toEqual({ kind: 'stop', reason: 'expired' });
    expect(decideTask(task, now, 60_000, false)).toEqual({ kind: 'run' });
  });
});

describe('planPace', () => {
  const task = (over: Partial<FanoutTaskV1['data']> = {}): FanoutTaskV1['data'] => ({
    notification_id: 'n1',
    fanout_id: 'n1',
    partition: 0,
    partitions: 6,
    step: 1,
    requested_at: '2026-01-01T00:00:00.000Z',
    wait_for: 0,
    audience: { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] },
    sequence: { apns: 0, fcm: 0 },
    targeted: { apns: 0, fcm: 0 },
    ...over,
  });
  const limits = { first: 1_000, step: 10_000 };
  const t0 = Date.parse('2026-01-01T00:00:10.000Z');
  const free = { paused: false };

  it('runs an unpaced task with the usual step', () => {
    expect(planPace(task(), free, t0, limits)).toEqual({ kind: 'run', limit: 10_000 });
    expect(planPace(task({ step: 0 }), free, t0, limits)).toEqual({ kind: 'run', limit: 1_000 });
  });

  it("sends a paced task's share of the rate a slice at a time, each slice at its recorded slot", () => {
    // 72,000/min over 6 partitions = 200/s per partition: 100 devices per 500 ms slice.
    const first = planPace(task({ step: 0, pace: { rate_per_minute: 72_000 } }), free, t0, limits);
    expect(first).toEqual({ kind: 'run', limit: 100, paced: { perSecond: 200, slotAt: t0, ratePerMinute: 72_000 } });
    const recorded = paceAfter(task({ pace: { rate_per_minute: 72_000 } }), first, 100);
    expect(recorded).toEqual({ rate_per_minute: 72_000, slot_at: new Date(t0).toISOString(), sent: 100 });
    const next = task({ pace: recorded });
    expect(planPace(next, free, t0 + 100, limits)).toEqual({ kind: 'wait', ms: 400 });
    expect(planPace(next, free, t0 + 520, limits)).toMatchObject({ kind: 'run', limit: 100, paced: { slotAt: t0 + 500 } });
  });

  it('applies a new rate from the controls to the wait under way, and waits while paused', () => {
    const next = task({ pace: { rate_per_minute: 72_000, slot_at: new Date(t0).toISOString(), sent: 100 } });
    expect(planPace(next, { paused: false, ratePerMinute: 144_000 }, t0 + 300, limits)).toMatchObject({ kind: 'run', limit: 200, paced: { perSecond: 400, slotAt: t0 + 250 } });
    expect(planPace(next, { paused: true }, t0 + 10_000, limits)).toEqual({ kind: 'wait', ms: Number.POSITIVE_INFINITY });
    // Paced by a PATCH although requested unpaced.
    expect(planPace(task(), { paused: false, ratePerMinute: 72_000 }, t0, limits)).toMatchObject({ kind: 'run', limit: 100 });
  });

  it('expires what is left past the deadline, paused or not', () => {
    const bounded = task({ deadline: new Date(t0).toISOString(), pace: { rate_per_minute: 60 } });
    expect(planPace(bounded, { paused: true }, t0, limits)).toEqual({ kind: 'expire', limit: 10_000 });
    expect(planPace(bounded, free, t0 - 1, limits)).toMatchObject({ kind: 'run', limit: 1 });
  });

  it("leaves the first step of a send paced by the project's default alone (a small send is never slowed)", () => {
    const byProject = task({ step: 0, pace: { rate_per_minute: 6_000, from_project: true } });
    expect(planPace(byProject, free, t0, limits)).toEqual({ kind: 'run', limit: 1_000 });
    expect(paceAfter(byProject, { kind: 'run', limit: 1_000 }, 1_000)).toEqual({ rate_per_minute: 6_000, from_project: true });
    expect(planPace(task({ step: 1, pace: { rate_per_minute: 6_000, from_project: true } }), free, t0, limits)).toMatchObject({ kind: 'run', limit: 8 });
  });

  it('never paces a transactional send; paces a declared campaign from its first step, even at the project default', () => {
    expect(planPace(task({ lane: 'transactional', pace: { rate_per_minute: 60 } }), { paused: false, ratePerMinute: 60 }, t0, limits)).toEqual({ kind: 'run', limit: 10_000 });
    expect(planPace(task({ lane: 'transactional' }), { paused: true }, t0, limits)).toEqual({ kind: 'wait', ms: Number.POSITIVE_INFINITY });
    expect(planPace(task({ step: 0, lane: 'campaign', pace: { rate_per_minute: 6_000, from_project: true } }), free, t0, limits)).toMatchObject({ kind: 'run', limit: 8 });
  });

  it('does not pace a task forwarded to a token holder', () => {
    expect(planPace(task({ forwarded: true, pace: { rate_per_minute: 60 } }), free, t0, limits)).toEqual({ kind: 'run', limit: 10_000 });
  });
});

describe('headStartWait', () => {
  const requested = '2026-01-01T00:00:00.000Z';
  const t0 = Date.parse(requested);

  it('holds only the second step of a fan-out, until the head start after the request is over', () => {
    expect(headStartWait({ step: 1, requested_at: requested }, t0 + 100)).toBe(FIRST_STEP_HEAD_START_MS - 100);
    expect(headStartWait({ step: 1, requested_at: requested }, t0 + FIRST_STEP_HEAD_START_MS)).toBe(0);
    expect(headStartWait({ step: 0, requested_at: requested }, t0)).toBe(0);
    expect(headStartWait({ step: 2, requested_at: requested }, t0 + 100)).toBe(0);
    expect(headStartWait({ step: 1, requested_at: requested, forwarded: true }, t0 + 100)).toBe(0);
  });

  it('holds nothing when the fan-out starts late (a schedule, a backlog)', () => {
    expect(headStartWait({ step: 1, requested_at: requested }, t0 + 60_000)).toBe(0);
  });
});
