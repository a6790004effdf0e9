import { describe, expect, it } from 'vitest';
import type { AudienceRow } from './batcher.ts';
import { decideStep, INITIAL_STATE, laneFor, stepFanout, type FanoutState } from './step.ts';

const row = (n: number): AudienceRow => ({ _id: `d${String(n).padStart(5, '0')}`, token: `tok${n}`, platform: n % 3 === 0 ? 'ios' : 'android' });
const options = { pageSize: 10, maxDevices: 4, maxDeviceBytes: 900_000 };
/** An audience in id order and the keyset page read the fan-out does. */
const pageOf = (audience: readonly AudienceRow[], after: string | undefined, size = options.pageSize) => audience.filter((r) => after === undefined || r._id > after).slice(0, size);

/** Runs every step over a (possibly changing) audience, like the shell does. */
function runAll(audience: (step: number) => readonly AudienceRow[]) {
  let state: FanoutState = INITIAL_STATE;
  const batches = [];
  for (;;) {
    const result = stepFanout(state, pageOf(audience(state.step + 1), state.after), options);
    batches.push(...result.batches);
    state = result.state;
    if (result.done) return { state, batches };
  }
}

describe('stepFanout', () => {
  it('queues an audience in bounded steps, each device once, sequences per provider without gaps', () => {
    const audience = Array.from({ length: 25 }, (_, n) => row(n));
    const { state, batches } = runAll(() => audience);
    expect(state.step).toBe(2);
    expect(batches.flatMap((b) => b.devices.map((d) => d.device_id)).sort()).toEqual(audience.map((r) => r._id));
    for (const provider of ['apns', 'fcm'] as const) {
      expect(batches.filter((b) => b.provider === provider).map((b) => b.sequence)).toEqual([...Array(state.sequence[provider]).keys()]);
    }
    expect(state.targeted).toEqual({ apns: 9, fcm: 16 });
    expect(batches.every((b) => b.devices.length <= 4)).toBe(true);
  });

  it('finishes at once on an empty audience, with nothing queued', () => {
    expect(stepFanout(INITIAL_STATE, [], options)).toEqual({ state: { ...INITIAL_STATE, step: 0, exhausted: true }, batches: [], done: true });
  });

  it('takes one more, empty step when the audience ends exactly at a page boundary', () => {
    const audience = Array.from({ length: 10 }, (_, n) => row(n));
    const first = stepFanout(INITIAL_STATE, pageOf(audience, undefined), options);
    expect(first.done).toBe(false);
    const second = stepFanout(first.state, pageOf(audience, first.state.after), options);
    expect(second).toMatchObject({ batches: [], done: true, state: { after: 'd00009', targeted: first.state.targeted, sequence: first.state.sequence } });
  });

  it('loses no device and queues none twice while the audience moves between pages', () => {
    const original = Array.from({ length: 30 }, (_, n) => row(n * 2));
    // After step 0, devices already queued are deactivated and new ones register on both sides of the cursor.
    const moved = [...original.filter((r, i) => i >= 5), row(1), row(41), row(59)].sort((a, b) => (a._id < b._id ? -1 : 1));
    const { batches } = runAll((step) => (step === 0 ? original : moved));
    const ids = batches.flatMap((b) => b.devices.map((d) => d.device_id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([...original.map((r) => r._id), 'd00041', 'd00059']));
    expect(ids).not.toContain('d00001'); // registered behind the cursor, as a live cursor would miss it too
  });

  it('yields identical batches when a step is retried from the same recorded state', () => {
    const audience = Array.from({ length: 25 }, (_, n) => row(n));
    const state = stepFanout(INITIAL_STATE, pageOf(audience, undefined), options).state;
    const once = stepFanout(state, pageOf(audience, state.after), options);
    const again = stepFanout(structuredClone(state), pageOf(audience, state.after), options);
    expect(again).toEqual(once);
  });
});

describe('laneFor', () => {
  it('sends a fan-out whose audience ended in its first step by the express lane, everything else by the campaign lane', () => {
    expect(laneFor({ step: 0, exhausted: true })).toBe('express');
    expect(laneFor({ step: 0, exhausted: false })).toBe('campaign');
    expect(laneFor({ step: 3, exhausted: true })).toBe('campaign');
  });
});

describe('decideStep', () => {
  const recorded = { step: 3, after: 'd00030', sequence: { apns: 5, fcm: 9 }, targeted: { apns: 12, fcm: 22 }, exhausted: false, dispatched: false, planned_by: 'e3' };

  it('plans step 0 of a new request and the step after the recorded one', () => {
    expect(decideStep(null, 0, 'e0', false)).toEqual({ kind: 'plan', state: { ...INITIAL_STATE, dispatched: false } });
    expect(decideStep(recorded, 4, 'e4', false)).toEqual({ kind: 'plan', state: recorded });
  });

  it('replays the recorded step when its work item comes again (a retry after a crash mid-publish)', () => {
    expect(decideStep(recorded, 3, 'e3', false)).toEqual({ kind: 'replay', state: recorded });
  });

  it('skips a second record for the recorded step (the continuation a replay of the step before published again)', () => {
    expect(decideStep(recorded, 3, 'another', false)).toEqual({ kind: 'skip', reason: 'duplicate' });
  });

  it('is a no-op for a redelivered step the progress has moved past, and for a finished fan-out', () => {
    expect(decideStep(recorded, 2, 'e2', false)).toEqual({ kind: 'skip', reason: 'moved-on' });
    expect(decideStep(recorded, 0, 'e0', true)).toEqual({ kind: 'skip', reason: 'moved-on' });
    expect(decideStep({ ...recorded, dispatched: true }, 2, 'e2', false)).toEqual({ kind: 'skip', reason: 'done-before' });
    expect(decideStep(recorded, 6, 'e6', false)).toEqual({ kind: 'skip', reason: 'ahead' });
  });

  it('re-announces a finished fan-out when its request or last step comes again', () => {
    const done = { ...recorded, exhausted: true, dispatched: true };
    expect(decideStep(done, 0, 'e0', false)).toEqual({ kind: 'announce', targeted: done.targeted, batches: done.sequence, stopped: false });
    expect(decideStep(done, 3, 'e3', false)).toMatchObject({ kind: 'announce' });
  });

  it('queues nothing more for a stopped (expired or cancelled) request, announcing what was planned before', () => {
    expect(decideStep(null, 0, 'e0', true)).toEqual({ kind: 'announce', targeted: { apns: 0, fcm: 0 }, batches: { apns: 0, fcm: 0 }, stopped: true });
    expect(decideStep(recorded, 4, 'e4', true)).toEqual({ kind: 'announce', targeted: recorded.targeted, batches: recorded.sequence, stopped: true });
  });
});
