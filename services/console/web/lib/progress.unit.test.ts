import { describe, expect, it } from 'vitest';
import type { FunnelCounts } from './funnel.ts';
import { minutesLeft, progressOf, shownCounts } from './progress.ts';

const ZERO: FunnelCounts = { targeted: 0, sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, opened: 0, expired: 0, capped: 0, deferred: 0 };
const counts = (patch: Partial<FunnelCounts>): FunnelCounts => ({ ...ZERO, ...patch });
const NOW = Date.parse('2026-12-07T12:00:00Z');

describe('progress over the states of a send', () => {
  it('queued with nothing known: empty, growing, never full', () => {
    const view = progressOf({ status: 'queued', counts: ZERO }, NOW);
    expect(view).toMatchObject({ targeted: 0, audience: 0, done: 0, fraction: 0, growing: true, active: true });
  });

  it('reports of one partition ahead of its targeted count: targeted is raised to sent, the bar is not full', () => {
    // What the console showed mid-send: targeted 54, sent 90, bar full.
    const view = progressOf({ status: 'sending', counts: counts({ targeted: 54, sent: 90, delivered: 90 }) }, NOW);
    expect(view.targeted).toBe(90);
    expect(view.fraction).toBeLessThan(1);
    expect(shownCounts(counts({ targeted: 54, sent: 90, delivered: 90 })).targeted).toBe(90);
  });

  it('targeted grows as partitions dispatch; sent never shown above targeted; the bar full only once sent', () => {
    const states: Array<[string, Partial<FunnelCounts>, number | null]> = [
      ['queued', {}, null],
      ['sending', { targeted: 54 }, 200],
      ['sending', { targeted: 54, sent: 54, delivered: 50, failed: 4 }, 200],
      ['sending', { targeted: 120, sent: 130, delivered: 125, failed: 5 }, 200],
      ['sending', { targeted: 200, sent: 199, delivered: 190, invalid: 9 }, 200],
      ['sending', { targeted: 200, sent: 200, delivered: 191, invalid: 9 }, 200],
      ['sent', { targeted: 200, sent: 200, delivered: 191, invalid: 9 }, null],
    ];
    const views = states.map(([status, patch, estimate]) => {
      const c = counts(patch);
      const view = progressOf({ status, counts: c, pace: estimate === null ? null : { rate_per_minute: 60, paused: false, audience_estimate: estimate, eta: null } }, NOW);
      expect(c.sent, status).toBeLessThanOrEqual(view.targeted);
      expect(shownCounts(c).sent).toBeLessThanOrEqual(shownCounts(c).targeted);
      return view;
    });
    expect(views.map((view) => view.fraction === 1)).toEqual([false, false, false, false, false, false, true]);
    // Against the estimated audience while partitions dispatch: 54 of 200, not 54 of 54.
    expect(views[2]!.fraction).toBeCloseTo(54 / 200);
    expect(views[2]!.growing).toBe(true);
    expect(views[5]!.growing).toBe(false);
    // The fractions only grow.
    for (let n = 1; n < views.length; n += 1) expect(views[n]!.fraction).toBeGreaterThanOrEqual(views[n - 1]!.fraction);
  });

  it('counts held devices as targeted, expired and capped as done', () => {
    const view = progressOf({ status: 'sending', counts: counts({ targeted: 10, sent: 4, delivered: 4, expired: 2, capped: 1, deferred: 5 }) }, NOW);
    expect(view).toMatchObject({ targeted: 12, done: 7 });
  });

  it('ETA: the API’s when given, else what is left at the rate, none while paused or unpaced or finished', () => {
    const c = counts({ targeted: 100, sent: 40, delivered: 40 });
    expect(progressOf({ status: 'sending', counts: c, pace: { rate_per_minute: 30, paused: false, audience_estimate: 100, eta: '2026-12-07T12:05:00Z' } }, NOW).eta).toEqual({ kind: 'at', at: Date.parse('2026-12-07T12:05:00Z') });
    expect(progressOf({ status: 'sending', counts: c, pace: { rate_per_minute: 30, paused: false, audience_estimate: 100, eta: null } }, NOW).eta).toEqual({ kind: 'at', at: NOW + 2 * 60_000 });
    expect(progressOf({ status: 'paused', counts: c, pace: { rate_per_minute: 30, paused: true, audience_estimate: 100, eta: null } }, NOW).eta).toEqual({ kind: 'paused' });
    expect(progressOf({ status: 'sending', counts: c }, NOW).eta).toEqual({ kind: 'unpaced' });
    expect(progressOf({ status: 'sent', counts: c }, NOW).eta).toEqual({ kind: 'none' });
    expect(progressOf({ status: 'cancelled', counts: c }, NOW)).toMatchObject({ active: false, fraction: 0.4 });
  });

  it('paused before it was dispatched: the audience is still to be resolved', () => {
    expect(progressOf({ status: 'paused', dispatched_at: null, counts: ZERO }, NOW)).toMatchObject({ growing: true, fraction: 0, eta: { kind: 'paused' } });
    // Dispatched on some partition, nothing targeted yet: still resolving (an empty audience would have ended it as sent).
    expect(progressOf({ status: 'paused', dispatched_at: '2026-12-07T11:59:00Z', counts: ZERO }, NOW).growing).toBe(true);
    expect(progressOf({ status: 'paused', dispatched_at: '2026-12-07T11:59:00Z', counts: counts({ targeted: 3 }) }, NOW).growing).toBe(false);
  });

  it('a paused send that has every outcome still shows a bar short of full', () => {
    expect(progressOf({ status: 'paused', counts: counts({ targeted: 5, sent: 5, delivered: 5 }) }, NOW).fraction).toBeLessThan(1);
  });

  it('minutes left at a new rate', () => {
    expect(minutesLeft(150, 100)).toBe(2);
    expect(minutesLeft(0, 100)).toBe(0);
  });
});
