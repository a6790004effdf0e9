/**
 * The campaign bench's judge of a paced run (pure): deliveries counted per
 * second since the request, the asked rate, and the paused span if any.
 * Over every window of 60 s (or the whole sending span when shorter) that
 * lies inside the sending span and outside the pause, the rate must be
 * within ±5 % of the asked one; while paused (from 1 s after the PATCH to
 * the resume), nothing may leave.
 */
export interface PaceJudgeInput {
  /** Distinct deliveries in second k since the request (index k). */
  perSecond: readonly number[];
  ratePerMinute: number;
  /** Seconds since the request: when the pause was asked and when the resume was. */
  pause?: { atS: number; resumedS: number } | undefined;
  tolerance?: number;
  windowS?: number;
}

export interface PaceJudgement {
  passed: boolean;
  windowS: number;
  windows: number;
  /** Slowest and fastest window, in pushes per minute. */
  minPerMinute: number | null;
  maxPerMinute: number | null;
  /** Pushes in the seconds from 1 s after the pause to the resume (must be 0). */
  sentWhilePaused: number;
  failures: string[];
}

export function judgePace(input: PaceJudgeInput): PaceJudgement {
  const tolerance = input.tolerance ?? 0.05;
  const counts = input.perSecond;
  const first = counts.findIndex((n) => n > 0);
  let last = counts.length - 1;
  while (last >= 0 && counts[last] === 0) last -= 1;
  const failures: string[] = [];
  if (first < 0) return { passed: false, windowS: 0, windows: 0, minPerMinute: null, maxPerMinute: null, sentWhilePaused: 0, failures: ['nothing was delivered'] };
  // Whole seconds only: the first and last seconds are partial.
  const from = first + 1;
  const to = last - 1;
  const paused = input.pause === undefined ? undefined : { from: Math.floor(input.pause.atS), to: Math.ceil(input.pause.resumedS) + 1 };
  let sentWhilePaused = 0;
  if (input.pause !== undefined) for (let s = Math.ceil(input.pause.atS + 1); s < Math.floor(input.pause.resumedS); s += 1) sentWhilePaused += counts[s] ?? 0;
  if (sentWhilePaused > 0) failures.push(`${sentWhilePaused} pushes left while paused (from 1 s after the pause to the resume)`);
  const span = to - from + 1;
  // The longest stretch without the pause: before it [from, paused.from - 1] or after it [paused.to + 1, to].
  const windowS = Math.max(1, Math.min(input.windowS ?? 60, paused === undefined ? span : Math.max(paused.from - from, to - paused.to, 1)));
  const rates: number[] = [];
  for (let start = from; start + windowS - 1 <= to; start += 1) {
    const end = start + windowS - 1;
    if (paused !== undefined && start <= paused.to && end >= paused.from) continue;
    let sum = 0;
    for (let s = start; s <= end; s += 1) sum += counts[s] ?? 0;
    rates.push((sum / windowS) * 60);
  }
  const min = rates.length === 0 ? null : Math.min(...rates);
  const max = rates.length === 0 ? null : Math.max(...rates);
  if (rates.length === 0) failures.push(`no whole window of ${windowS} s to judge the rate on (run longer: more devices or a lower rate)`);
  else if (min! < input.ratePerMinute * (1 - tolerance) || max! > input.ratePerMinute * (1 + tolerance)) {
    failures.push(`rate over ${windowS} s windows ${Math.round(min!)}–${Math.round(max!)}/min, asked ${input.ratePerMinute} ± ${tolerance * 100} %`);
  }
  return { passed: failures.length === 0, windowS, windows: rates.length, minPerMinute: min, maxPerMinute: max, sentWhilePaused, failures };
}
