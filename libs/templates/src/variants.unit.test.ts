import { describe, expect, it } from 'vitest';
import { assignDevice, assignmentPoint, compareProportions, decideWinner, normalCdf, type Assignment } from './variants.ts';

const DEVICES = 20_000;
const ids = Array.from({ length: DEVICES }, (_, index) => `device-${index}`);

function tally(assignments: Assignment[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of assignments) {
    const key = item.kind === 'variant' ? `v${item.index}` : item.kind;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Within 5 standard deviations of the binomial expectation: a fair split fails this about once in 3.5 million. */
function expectShare(count: number, n: number, share: number): void {
  const sd = Math.sqrt(n * share * (1 - share));
  expect(Math.abs(count - n * share)).toBeLessThan(5 * sd);
}

describe('assignDevice', () => {
  it('is deterministic per (notification, device) and independent across notifications', () => {
    const plan = { variants: 2, holdoutPercent: 10 };
    expect(assignDevice(plan, 'n1', 'd1')).toEqual(assignDevice(plan, 'n1', 'd1'));
    const same = ids.filter((id) => assignmentPoint('n1', id) < 0.5 === assignmentPoint('n2', id) < 0.5).length;
    expectShare(same, DEVICES, 0.5);
  });

  it('splits ≥ 10,000 devices in the planned proportions: holdout, equal variants, remainder', () => {
    const plan = { variants: 3, holdoutPercent: 10, testPercent: 20 };
    const counts = tally(ids.map((id) => assignDevice(plan, 'campaign-7', id)));
    expectShare(counts.get('held_out') ?? 0, DEVICES, 0.1);
    // Of the other 90 %: 20 % in the test, a third of it per variant; 80 % waits.
    for (const variant of ['v0', 'v1', 'v2']) expectShare(counts.get(variant) ?? 0, DEVICES, (0.9 * 0.2) / 3);
    expectShare(counts.get('remainder') ?? 0, DEVICES, 0.9 * 0.8);
  });

  it('has no remainder without a test share, and no holdout at 0 %', () => {
    const counts = tally(ids.map((id) => assignDevice({ variants: 2, holdoutPercent: 0 }, 'n', id)));
    expect([...counts.keys()].sort()).toEqual(['v0', 'v1']);
    expectShare(counts.get('v0') ?? 0, DEVICES, 0.5);
  });

  it('gives uniform points: each tenth of [0, 1) holds a tenth of the devices', () => {
    const deciles = new Array<number>(10).fill(0);
    for (const id of ids) deciles[Math.floor(assignmentPoint('n', id) * 10)]! += 1;
    for (const count of deciles) expectShare(count, DEVICES, 0.1);
  });
});

describe('compareProportions (known answers)', () => {
  it('200/1000 against 250/1000: z 2.677, p 0.0074, interval [0.0135, 0.0865], significant', () => {
    const result = compareProportions({ sent: 1000, opened: 200 }, { sent: 1000, opened: 250 });
    expect(result?.difference).toBeCloseTo(0.05, 10);
    expect(result?.z).toBeCloseTo(2.677397763, 6);
    expect(result?.pValue).toBeCloseTo(0.0074196, 5);
    expect(result?.interval[0]).toBeCloseTo(0.0134636, 5);
    expect(result?.interval[1]).toBeCloseTo(0.0865364, 5);
    expect(result?.significant).toBe(true);
  });

  it('45/500 against 50/500: p 0.590, not significant; 1200/10000 against 1320/10000: p 0.0106, significant', () => {
    const small = compareProportions({ sent: 500, opened: 45 }, { sent: 500, opened: 50 });
    expect(small?.pValue).toBeCloseTo(0.5897197, 5);
    expect(small?.significant).toBe(false);
    const large = compareProportions({ sent: 10_000, opened: 1200 }, { sent: 10_000, opened: 1320 });
    expect(large?.pValue).toBeCloseTo(0.0105589, 5);
    expect(large?.interval[0]).toBeCloseTo(0.0028033, 5);
  });

  it('has no test without data or variance', () => {
    expect(compareProportions({ sent: 0, opened: 0 }, { sent: 10, opened: 1 })).toBeUndefined();
    expect(compareProportions({ sent: 10, opened: 0 }, { sent: 10, opened: 0 })).toBeUndefined();
  });

  it('normalCdf matches the table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.1586553, 6);
  });
});

describe('decideWinner', () => {
  it('picks the best variant when it beats the runner-up significantly', () => {
    expect(decideWinner([{ sent: 1000, opened: 200 }, { sent: 1000, opened: 250 }, { sent: 1000, opened: 100 }])).toMatchObject({ winner: 1, best: 1, reason: 'significant' });
  });

  it('sends the fallback (A unless named) and says so when the difference is not significant', () => {
    expect(decideWinner([{ sent: 500, opened: 45 }, { sent: 500, opened: 50 }])).toMatchObject({ winner: 0, best: 1, reason: 'not_significant' });
    expect(decideWinner([{ sent: 500, opened: 50 }, { sent: 500, opened: 45 }], 1)).toMatchObject({ winner: 1, best: 0, reason: 'not_significant' });
    expect(decideWinner([{ sent: 0, opened: 0 }, { sent: 0, opened: 0 }], 1)).toMatchObject({ winner: 1, reason: 'no_data' });
  });
});

describe('parseIsoDuration', () => {
  it('reads days, hours, minutes and seconds; refuses the rest', async () => {
    const { parseIsoDuration } = await import('./duration.ts');
    expect(parseIsoDuration('PT2H')).toBe(7200);
    expect(parseIsoDuration('PT5S')).toBe(5);
    expect(parseIsoDuration('P1DT30M')).toBe(86_400 + 1800);
    for (const bad of ['P', 'PT', 'PT0S', '2h', 'P1Y', 'P1W', 'PT1.5H', 'P1DT', '']) expect(parseIsoDuration(bad)).toBeUndefined();
  });
});
