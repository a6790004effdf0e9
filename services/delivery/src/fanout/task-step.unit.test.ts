import { describe, expect, it } from 'vitest';
import { decideTask, planStep, type TaskProgress } from './task-step.ts';
import type { Page } from '../index/read-page.ts';

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
