import { describe, expect, it } from 'vitest';
import { deadlineOf, decidePace, departureAt, etaOf, nextAtOf, nextStepAt, pacedStepDevices, partitionRate, PACE_BURST_MS, slotOf } from './pace.ts';

describe('pacing arithmetic', () => {
  it("gives each partition task its equal share of the campaign's rate", () => {
    expect(partitionRate(60_000, 6)).toBeCloseTo(166.667, 2);
    expect(partitionRate(600, 1)).toBe(10);
  });

  it('reads a slice worth of devices per paced step, at least one and never more than an unpaced step', () => {
    expect(pacedStepDevices(1000, 10_000)).toBe(500);
    expect(pacedStepDevices(0.01, 10_000)).toBe(1);
    expect(pacedStepDevices(1e6, 10_000)).toBe(10_000);
  });

  it('schedules the k-th push evenly from the recorded start', () => {
    expect(departureAt(1_000, 0, 10)).toBe(1_000);
    expect(departureAt(1_000, 25, 10)).toBe(3_500);
  });

  it('keeps the even schedule for steps on time (no drift from processing)', () => {
    // 10 pushes/s; a step of 5 on time (slot 1000, ran at 1030) makes the next slot 1500, not 1530.
    expect(nextStepAt(1_000, 1_030, 5, 10)).toBe(1_500);
    let slot = 0;
    for (let step = 0; step < 120; step += 1) slot = nextStepAt(slot, slot + 20, 5, 10);
    expect(slot).toBe(60_000);
  });

  it('lets a late step (instance killed, paused) catch up at most one burst, never the whole gap', () => {
    // Slot 1000, but the task ran again only at 60000 (kill -9 + rebalance): the next slot is one step's time after now - burst.
    expect(nextStepAt(1_000, 60_000, 5, 10)).toBe(60_000 - PACE_BURST_MS + 500);
    expect(nextStepAt(1_000, 60_000, 5, 10, 0)).toBe(60_500);
    expect(slotOf(undefined, 42)).toBe(42);
  });

  it('applies a new rate to the wait under way (the slot and its count are recorded, not the instant)', () => {
    const slot = slotOf(1_000, 1_010);
    expect(nextAtOf(slot, 50, 10)).toBe(6_000);
    expect(nextAtOf(slot, 50, 100)).toBe(1_500);
  });

  it('decides run, wait (paused or before its slot) or expire (past max_duration) with the clock passed in', () => {
    expect(decidePace({ now: 100, nextAt: 100, paused: false })).toEqual({ kind: 'run' });
    expect(decidePace({ now: 100, paused: false })).toEqual({ kind: 'run' });
    expect(decidePace({ now: 100, nextAt: 350, paused: false })).toEqual({ kind: 'wait', ms: 250 });
    expect(decidePace({ now: 100, nextAt: 50, paused: true })).toEqual({ kind: 'wait', ms: Number.POSITIVE_INFINITY });
    expect(decidePace({ now: 100, nextAt: 350, deadline: 100, paused: true })).toEqual({ kind: 'expire' });
    expect(decidePace({ now: 99, nextAt: 50, deadline: 100, paused: false })).toEqual({ kind: 'run' });
  });

  it('puts the max_duration deadline after the request', () => {
    expect(deadlineOf('2026-01-01T00:00:00.000Z', 90)).toBe(Date.parse('2026-01-01T00:01:30.000Z'));
    expect(deadlineOf('2026-01-01T00:00:00.000Z', undefined)).toBeUndefined();
  });

  it('estimates the end of a paced send from what is left', () => {
    expect(etaOf(6_000, 60_000, 1_000)).toBe(7_000);
    expect(etaOf(6_000, undefined, 1_000)).toBeUndefined();
    expect(etaOf(0, 600, 1_000)).toBeUndefined();
  });
});
