import { hash } from 'node:crypto';

/** Where one device of an A/B send goes: a variant (by index), the holdout (no push), or the remainder (sent the winner later). */
export type Assignment = { kind: 'variant'; index: number } | { kind: 'held_out' } | { kind: 'remainder' };

export interface SplitPlan {
  /** Variants, 2–5. */
  variants: number;
  /** Share of the audience that gets nothing (the control group), 0–50. */
  holdoutPercent: number;
  /** Share of the rest that takes part in the test, 1–100; the others wait for the winner. Absent: every device takes part (no remainder). */
  testPercent?: number | undefined;
}

/**
 * A uniform number in [0, 1) from notification and device ids (pure): 48
 * bits of their SHA-256. The same pair always gives the same number, so a
 * replay or a second delivery instance assigns every device alike, and two
 * notifications split one audience independently.
 */
export function assignmentPoint(notificationId: string, deviceId: string): number {
  return hash('sha256', `${notificationId}\u0000${deviceId}`, 'buffer').readUIntBE(0, 6) / 2 ** 48;
}

/**
 * Assigns a device (pure): the first `holdoutPercent` of [0, 1) is the
 * holdout; of the rest, the first `testPercent` is cut into equal shares,
 * one per variant, and the remainder waits for the decision.
 */
export function assignDevice(plan: SplitPlan, notificationId: string, deviceId: string): Assignment {
  const point = assignmentPoint(notificationId, deviceId);
  const holdout = plan.holdoutPercent / 100;
  if (point < holdout) return { kind: 'held_out' };
  const rest = (point - holdout) / (1 - holdout);
  const test = (plan.testPercent ?? 100) / 100;
  if (rest >= test) return { kind: 'remainder' };
  return { kind: 'variant', index: Math.min(plan.variants - 1, Math.floor((rest / test) * plan.variants)) };
}

/** One arm of a test: devices sent and devices that opened. */
export interface Arm {
  sent: number;
  opened: number;
}

export interface Comparison {
  rateA: number;
  rateB: number;
  /** rateB − rateA */
  difference: number;
  /** The difference's confidence interval (unpooled standard error). */
  interval: [low: number, high: number];
  z: number;
  /** Two-sided. */
  pValue: number;
  significant: boolean;
}

/** z for a two-sided 95 % interval. */
const Z_95 = 1.959963984540054;

/**
 * The two-proportion z-test of B's open rate against A's (pure): z with the
 * pooled standard error, the interval of the difference with the unpooled
 * one (as analysts compute both), significant when p < 0.05. Undefined when
 * an arm has sent nothing or the pooled rate is 0 or 1 (no variance: no
 * test).
 */
export function compareProportions(a: Arm, b: Arm): Comparison | undefined {
  if (a.sent === 0 || b.sent === 0) return undefined;
  const rateA = a.opened / a.sent;
  const rateB = b.opened / b.sent;
  const pooled = (a.opened + b.opened) / (a.sent + b.sent);
  const pooledSe = Math.sqrt(pooled * (1 - pooled) * (1 / a.sent + 1 / b.sent));
  if (pooledSe === 0) return undefined;
  const difference = rateB - rateA;
  const z = difference / pooledSe;
  const pValue = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
  const se = Math.sqrt((rateA * (1 - rateA)) / a.sent + (rateB * (1 - rateB)) / b.sent);
  return { rateA, rateB, difference, interval: [difference - Z_95 * se, difference + Z_95 * se], z, pValue, significant: pValue < 0.05 };
}

/** Φ(x), the standard normal CDF. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** erfc by Numerical Recipes' `erfcc` (a Chebyshev fit, §6.2): fractional error below 1.2e-7 everywhere, ample for p-values. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

export interface Decision {
  /** The variant index sent to the remainder. */
  winner: number;
  /** The best variant by open rate, and its comparison with the runner-up. */
  best: number;
  comparison: Comparison | undefined;
  /** `significant`: the best won; otherwise the fallback was sent, and the reason says why. */
  reason: 'significant' | 'not_significant' | 'no_data';
}

/**
 * The decision at `decide_after` (pure): the variant with the best open
 * rate wins when its rate beats the runner-up's significantly; otherwise
 * the `fallback` variant (A unless named) is sent, and the decision says so.
 */
export function decideWinner(arms: readonly Arm[], fallback = 0): Decision {
  const rate = (arm: Arm) => (arm.sent === 0 ? -1 : arm.opened / arm.sent);
  const order = arms.map((arm, index) => ({ index, rate: rate(arm) })).sort((x, y) => y.rate - x.rate || x.index - y.index);
  const [best, second] = order;
  if (best === undefined || second === undefined) return { winner: fallback, best: fallback, comparison: undefined, reason: 'no_data' };
  const comparison = compareProportions(arms[second.index] as Arm, arms[best.index] as Arm);
  if (comparison === undefined) return { winner: fallback, best: best.index, comparison, reason: 'no_data' };
  return comparison.significant ? { winner: best.index, best: best.index, comparison, reason: 'significant' } : { winner: fallback, best: best.index, comparison, reason: 'not_significant' };
}
