import { describe, expect, it } from 'vitest';
import type { NotificationRequestedV2 } from '@herald/events';
import { decisionAt, decisionOf } from './decide-step.ts';

const request: NotificationRequestedV2['data'] = {
  notification_id: 'n-1',
  title: 'A',
  body: 'a',
  targets: ['all'],
  variants: [
    { name: 'A', title: 'A', body: 'a' },
    { name: 'B', title: 'B', body: 'b' },
  ],
  holdout_percent: 10,
  test: { percent: 20, decide_after: 'PT2H', metric: 'open_rate' },
  fallback: 'A',
};

describe('decisionAt', () => {
  it('is decide_after after the send became due; none without a test', () => {
    expect(decisionAt(request, '2026-12-07T10:00:00.000Z')?.toISOString()).toBe('2026-12-07T12:00:00.000Z');
    expect(decisionAt({ ...request, test: undefined }, '2026-12-07T10:00:00.000Z')).toBeUndefined();
  });
});

describe('decisionOf', () => {
  it('picks B when its open rate beats A significantly (200/1000 against 250/1000: p 0.0074)', () => {
    const { event, winner } = decisionOf(request, { A: { delivered: 1000, opened: 200 }, B: { delivered: 1000, opened: 250 } }, { project_id: 'p' });
    expect(winner).toBe(1);
    expect(event.data).toMatchObject({ best: 'B', runner_up: 'A', chosen: 'B', significant: true, reason: 'significant', remainder_fanout_id: 'n-1#remainder' });
    expect(event.data.p_value).toBeCloseTo(0.0074196, 5);
    expect(event.data.difference).toBeCloseTo(0.05, 10);
    expect(event.data.interval?.[0]).toBeCloseTo(0.0134636, 5);
    expect(event.data.arms).toEqual([
      { variant: 'A', delivered: 1000, opened: 200, rate: 0.2 },
      { variant: 'B', delivered: 1000, opened: 250, rate: 0.25 },
    ]);
  });

  it('sends the fallback and says so without significance, or without data', () => {
    const close = decisionOf({ ...request, fallback: 'B' }, { A: { delivered: 500, opened: 50 }, B: { delivered: 500, opened: 45 } }, { project_id: 'p' });
    expect(close.winner).toBe(1);
    expect(close.event.data).toMatchObject({ best: 'A', chosen: 'B', significant: false, reason: 'not_significant' });
    const none = decisionOf(request, {}, { project_id: 'p' });
    expect(none.event.data).toMatchObject({ chosen: 'A', significant: false, reason: 'no_data' });
    expect(none.event.data.arms[0]!.rate).toBeNull();
  });
});
