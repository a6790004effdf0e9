import { deltasOf, tally, type CountDelta } from './counts.ts';
import type { DeliveryCounts } from './notification-document.ts';

/** Devices per outcome, and the opens recorded: the notification's counts that a report also keeps. */
export type OutcomeCounts = Pick<DeliveryCounts, 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'expired' | 'capped' | 'opened'>;

export const ZERO_OUTCOMES: OutcomeCounts = { delivered: 0, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 0 };

const OUTCOME_FIELDS = Object.keys(ZERO_OUTCOMES) as Array<keyof OutcomeCounts>;

const HOUR_MS = 3_600_000;

/** The UTC hour of an ISO time, `YYYY-MM-DDTHH` (its first 13 characters). */
export const hourOf = (time: string): string => time.slice(0, 13);

/**
 * The counters key of a project's outcomes and opens in one UTC hour: the
 * console's Overview. They are counters of the `notification_reports` read
 * model (counts.ts), not a read model of their own: a report already counts
 * each batch once however often it is reported (its `reported_batches`), so
 * what its change adds to the hour is exact. A project-wide document that
 * remembered the batches it had counted was rewritten whole (up to 250 KB)
 * at every chunk and still counted a late repeat twice.
 */
export const outcomesCountKey = (hour: string): string => `outcomes:${hour}`;

/** The same for test sends (`test_send`): kept apart so the Overview leaves them out unless asked (as the notification list does). */
export const testOutcomesCountKey = (hour: string): string => `test_outcomes:${hour}`;

/** The parts of a notification report its outcome counters are taken from. */
export interface CountedReport {
  project_id: string;
  /** A test send: counted under the test keys. */
  test_send?: true;
  /** The time of the last event that changed it: the hour a change is counted in. */
  updated_at: string;
  timeline: ReadonlyArray<Partial<OutcomeCounts>>;
}

function totalsOf(timeline: ReadonlyArray<Partial<OutcomeCounts>>, groups: Map<string, Record<string, number>>, key: string, sign: number): void {
  for (const bucket of timeline) for (const field of OUTCOME_FIELDS) if ((bucket[field] ?? 0) !== 0) tally(groups, key, field, sign * bucket[field]!);
}

/**
 * What a notification report's change adds to its project's outcomes, in the
 * hour of the event that changed it (pure): what its timeline holds now less
 * what it held. A repeated batch, or a deferred one, changes no bucket and
 * adds nothing.
 */
export function outcomeCountDeltas(before: CountedReport | undefined, after: CountedReport): CountDelta[] {
  const key = (after.test_send === true ? testOutcomesCountKey : outcomesCountKey)(hourOf(after.updated_at));
  const groups = new Map<string, Record<string, number>>();
  totalsOf(after.timeline, groups, key, 1);
  if (before !== undefined) totalsOf(before.timeline, groups, key, -1);
  return deltasOf(after.project_id, groups);
}

/** The `count` UTC hours up to the one holding `now`, oldest first. */
export function hoursUpTo(now: number, count: number): string[] {
  return Array.from({ length: count }, (_, n) => hourOf(new Date(now - (count - 1 - n) * HOUR_MS).toISOString()));
}

/** The counter keys of an hour: the main one, and the test sends' when they are asked for. */
export const outcomeKeysOf = (hour: string, includeTests: boolean): string[] => (includeTests ? [outcomesCountKey(hour), testOutcomesCountKey(hour)] : [outcomesCountKey(hour)]);

/**
 * Totals over `hours`, and each of those hours that has any, oldest first,
 * from a project's summed counters (pure); test sends' only with `includeTests`.
 */
export function outcomesOver(
  sums: ReadonlyMap<string, Readonly<Record<string, number>>>,
  hours: readonly string[],
  includeTests = false,
): { totals: OutcomeCounts; hours: Array<OutcomeCounts & { hour: string }> } {
  const totals = { ...ZERO_OUTCOMES };
  const series: Array<OutcomeCounts & { hour: string }> = [];
  for (const hour of hours) {
    const item = { hour, ...ZERO_OUTCOMES };
    for (const key of outcomeKeysOf(hour, includeTests)) {
      const counts = sums.get(key);
      if (counts !== undefined) for (const field of OUTCOME_FIELDS) item[field] = (item[field] ?? 0) + (counts[field] ?? 0);
    }
    if (OUTCOME_FIELDS.every((field) => (item[field] ?? 0) === 0)) continue;
    for (const field of OUTCOME_FIELDS) totals[field] = (totals[field] ?? 0) + (item[field] ?? 0);
    series.push(item);
  }
  return { totals, hours: series };
}
