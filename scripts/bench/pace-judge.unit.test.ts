import { describe, expect, it } from 'vitest';
import { judgePace } from './pace-judge.ts';

const steady = (seconds: number, perSecond: number, lead = 1) => [...Array.from({ length: lead }, () => 0), ...Array.from({ length: seconds }, () => perSecond)];

describe('judgePace', () => {
  it('passes a run at the asked rate over every minute', () => {
    const judged = judgePace({ perSecond: steady(130, 100), ratePerMinute: 6_000 });
    expect(judged).toMatchObject({ passed: true, windowS: 60, minPerMinute: 6_000, maxPerMinute: 6_000, sentWhilePaused: 0 });
    expect(judged.windows).toBeGreaterThan(60);
  });

  it('fails a minute 10 % fast, and judges a short run over its whole span', () => {
    const counts = steady(130, 100);
    for (let s = 40; s < 70; s += 1) counts[s] = 120;
    expect(judgePace({ perSecond: counts, ratePerMinute: 6_000 }).failures).toEqual([expect.stringContaining('asked 6000 ± 5 %')]);
    expect(judgePace({ perSecond: steady(10, 100), ratePerMinute: 6_000 })).toMatchObject({ passed: true, windowS: 8 });
  });

  it('leaves the pause out of the windows and fails any push sent while paused', () => {
    const counts = [...steady(70, 100), ...Array.from({ length: 20 }, () => 0), ...steady(70, 100, 0)];
    expect(judgePace({ perSecond: counts, ratePerMinute: 6_000, pause: { atS: 71, resumedS: 91 } })).toMatchObject({ passed: true, sentWhilePaused: 0 });
    // A shorter run: the longest stretch beside the pause (45 s after it) is the window.
    const short = [...steady(30, 100), ...Array.from({ length: 10 }, () => 0), ...steady(47, 100, 0)];
    expect(judgePace({ perSecond: short, ratePerMinute: 6_000, pause: { atS: 31, resumedS: 41 } })).toMatchObject({ passed: true, windowS: 44, windows: 1 });
    counts[80] = 5;
    expect(judgePace({ perSecond: counts, ratePerMinute: 6_000, pause: { atS: 71, resumedS: 91 } })).toMatchObject({ passed: false, sentWhilePaused: 5 });
  });

  it('fails a run that delivered nothing', () => {
    expect(judgePace({ perSecond: [0, 0], ratePerMinute: 60 }).passed).toBe(false);
  });
});
