// The transactional benchmark's arithmetic (pure): which device each send
// targets, percentiles, rates, CPU per notification, the judge's verdict and
// the JSON summary.
import { PROCESS_GROUPS, type ProcessGroup } from './summary.ts';

/** The groups whose CPU is Herald's own cost of a notification (the fakes and the bench are the test rig). */
export const HERALD_GROUPS: readonly ProcessGroup[] = ['api', 'projector', 'delivery', 'kafka', 'store'];

/** iOS devices are indexes [0, ceil(n/2)), Android the rest (register.ts `platformOf`). */
export const iosCountOf = (sends: number) => Math.ceil(sends / 2);

/** Send `i` targets device index: even sends the iOS devices, odd ones the Android devices, so platforms alternate. */
export function deviceOfSend(send: number, sends: number): number {
  return send % 2 === 0 ? send / 2 : iosCountOf(sends) + (send - 1) / 2;
}

export function sendOfDevice(device: number, sends: number): number {
  const ios = iosCountOf(sends);
  return device < ios ? device * 2 : (device - ios) * 2 + 1;
}

/** The p-th percentile (0 < p ≤ 100) of `values` by nearest rank; null when empty. */
export function percentile(values: ArrayLike<number>, p: number): number | null {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** What a run measured, in ms on one `performance.now()` clock (NaN where not reached). */
export interface SendTimes {
  /** When each POST started (open loop: when it was due, so a late start counts as latency). */
  start: Float64Array;
  /** When its answer came (201 or not). */
  answered: Float64Array;
  /** When the fake accepted its device's first delivery. */
  delivered: Float64Array;
}

export interface SendFigures {
  postPerS: number | null;
  postP50Ms: number | null;
  postP99Ms: number | null;
  notificationsPerS: number | null;
  deliveredP50Ms: number | null;
  deliveredP99Ms: number | null;
  deliveredMaxMs: number | null;
  /** The same over the sends started WARM_UP_MS or more after the first: the stack past its cold start (JIT, connections, caches). */
  warmDeliveredP50Ms: number | null;
  warmDeliveredP99Ms: number | null;
  /** First POST start → last first-delivery (s); null until every send was delivered. */
  sendingS: number | null;
}

/** Extremes without spreading (a million arguments overflow the stack); NaN entries are skipped, NaN when none is left. */
function extreme(values: ArrayLike<number>, pick: (a: number, b: number) => number): number {
  let out = NaN;
  for (let i = 0; i < values.length; i += 1) if (Number.isFinite(values[i])) out = Number.isNaN(out) ? values[i]! : pick(out, values[i]!);
  return out;
}

/** Sends started this long after the first count as warm (`warmDelivered…`): the first seconds after start-up run cold code. */
export const WARM_UP_MS = 2_000;

/** Rates and latencies (pure): POSTs answered per second of the POST phase, notifications/s from first POST to last delivery. */
export function sendFigures(times: SendTimes): SendFigures {
  const n = times.start.length;
  const finite = (values: number[]) => values.filter((value) => Number.isFinite(value));
  const posts = finite(Array.from({ length: n }, (_, i) => times.answered[i]! - times.start[i]!));
  const delivered = finite(Array.from({ length: n }, (_, i) => times.delivered[i]! - times.start[i]!));
  const first = extreme(times.start, Math.min);
  const lastAnswer = extreme(times.answered, Math.max);
  const allDelivered = delivered.length === n && n > 0;
  const lastDelivery = allDelivered ? extreme(times.delivered, Math.max) : NaN;
  const postSpan = (lastAnswer - first) / 1000;
  const warm = finite(Array.from({ length: n }, (_, i) => (times.start[i]! - first >= WARM_UP_MS ? times.delivered[i]! - times.start[i]! : NaN)));
  return {
    postPerS: posts.length === n && postSpan > 0 ? n / postSpan : null,
    postP50Ms: percentile(posts, 50),
    postP99Ms: percentile(posts, 99),
    notificationsPerS: allDelivered && lastDelivery > first ? n / ((lastDelivery - first) / 1000) : null,
    deliveredP50Ms: percentile(delivered, 50),
    deliveredP99Ms: percentile(delivered, 99),
    deliveredMaxMs: delivered.length === 0 ? null : extreme(delivered, Math.max),
    warmDeliveredP50Ms: percentile(warm, 50),
    warmDeliveredP99Ms: percentile(warm, 99),
    sendingS: allDelivered ? (lastDelivery - first) / 1000 : null,
  };
}

/** CPU ms per notification by group, and Herald's own sum (api + projector + delivery + kafka + store); null groups unmeasured. */
export function cpuPerNotification(cpuS: Partial<Record<string, number>>, sends: number): { byGroup: Record<ProcessGroup, number | null>; herald: number | null } {
  const byGroup = Object.fromEntries(PROCESS_GROUPS.map((group) => [group, cpuS[group] === undefined ? null : round((cpuS[group] * 1000) / sends, 3)])) as Record<ProcessGroup, number | null>;
  const own = HERALD_GROUPS.map((group) => cpuS[group]).filter((value): value is number => value !== undefined);
  return { byGroup, herald: own.length === 0 ? null : round((own.reduce((sum, value) => sum + value, 0) * 1000) / sends, 3) };
}

export interface JudgeInput {
  status: string;
  sends: number;
  /** Answers other than 201 (and requests that failed outright). */
  postErrors: number;
  distinct: number;
  duplicates: number;
  rejected: number;
  deadLetters: number | null;
  /** Notifications whose counts were compared with the ledger, and how many differed (null: not compared). */
  countsChecked: number;
  countsMismatched: number | null;
  /** Devices the ledger says were delivered, over every send. */
  ledgerDelivered: number | null;
}

/** Why the run fails (empty: it passes): every send delivered exactly once, counts equal the ledger, nothing dead-lettered. */
export function transactionalVerdict(input: JudgeInput): string[] {
  const failures: string[] = [];
  if (input.status !== 'ok') failures.push(`run status ${input.status}`);
  if (input.postErrors > 0) failures.push(`${input.postErrors} POSTs not answered 201`);
  if (input.distinct < input.sends) failures.push(`delivered ${input.distinct} of ${input.sends} sends`);
  if (input.duplicates > 0) failures.push(`duplicates ${input.duplicates} (expected 0: nothing was faulted)`);
  if (input.rejected > 0) failures.push(`${input.rejected} pushes rejected by the fakes`);
  if (input.deadLetters === null) failures.push('dead letters could not be counted');
  else if (input.deadLetters > 0) failures.push(`dead_letters ${input.deadLetters} (expected 0)`);
  if (input.countsMismatched === null) failures.push('counts could not be compared with the ledger');
  else if (input.countsMismatched > 0) failures.push(`${input.countsMismatched} of ${input.countsChecked} notifications' counts differ from the ledger`);
  else if (input.countsChecked < input.sends) failures.push(`counts compared for ${input.countsChecked} of ${input.sends} notifications`);
  if (input.ledgerDelivered !== null && input.ledgerDelivered !== input.sends) failures.push(`the ledger has ${input.ledgerDelivered} delivered devices for ${input.sends} sends`);
  return failures;
}

export function round(value: number, digits = 0): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

export const roundOrNull = (value: number | null | undefined, digits = 0) => (value === null || value === undefined || !Number.isFinite(value) ? null : round(value, digits));
