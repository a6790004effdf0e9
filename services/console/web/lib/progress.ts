import { settled, type FunnelCounts } from './funnel.ts';

/** A notification as the progress needs it: its status, counts and (paced or paused) pace. */
export interface ProgressInput {
  status: string;
  counts: FunnelCounts;
  /** When its audience was first resolved; null: not yet (queued, or paused before it was dispatched). */
  dispatched_at?: string | null | undefined;
  pace?: { rate_per_minute: number | null; paused: boolean; audience_estimate: number | null; eta: string | null } | null | undefined;
}

export type Eta = { kind: 'at'; at: number } | { kind: 'paused' } | { kind: 'unpaced' } | { kind: 'none' };

export interface ProgressView {
  /** Devices known to be targeted: never fewer than those sent or with an outcome (the counts of partitions still dispatching lag their reports). */
  targeted: number;
  /** What progress is measured against: the targeted devices, or the audience the fan-out estimated when that is larger. */
  audience: number;
  /** The audience may still grow: partitions are still dispatching. */
  growing: boolean;
  /** Devices with an outcome. */
  done: number;
  /** Share done, 0 … 1; below 1 while the notification is still queued, sending or paused. */
  fraction: number;
  /** Still under way (queued, sending or paused): the bar and the ETA are shown. */
  active: boolean;
  eta: Eta;
}

const ACTIVE = new Set(['queued', 'sending', 'paused']);
/** Below full, so a bar still sending never looks finished (0.5 % short). */
const NOT_FULL = 0.995;

/** Devices targeted as far as the counts prove it: at least every device sent, settled or held. */
export function targetedOf(counts: FunnelCounts): number {
  return Math.max(counts.targeted, counts.sent, settled(counts) + (counts.deferred ?? 0));
}

/** Counts as shown: targeted raised to what the other counts prove (sent is never shown above targeted). */
export function shownCounts<T extends FunnelCounts>(counts: T): T {
  return { ...counts, targeted: targetedOf(counts) };
}

/**
 * Progress, ETA and the bar of a notification at any moment: while its
 * partitions dispatch, `targeted` grows and reports of one partition can
 * arrive before another's targeted count; the bar is never full while
 * sending, and the ETA is the API's (paced), or what is left at the current
 * rate, or none (paused, unpaced).
 */
export function progressOf(input: ProgressInput, now: number): ProgressView {
  const { counts, pace } = input;
  const active = ACTIVE.has(input.status);
  const targeted = targetedOf(counts);
  const estimate = pace?.audience_estimate ?? 0;
  const audience = Math.max(targeted, estimate);
  const done = settled(counts);
  // Nothing targeted yet while still under way: some partition has not dispatched (an audience found empty
  // everywhere ends the send as `sent` at once, paused or not), so the audience is still being resolved.
  const growing = active && (input.status === 'queued' || input.dispatched_at === null || estimate > targeted || targeted === 0);
  let fraction = audience === 0 ? 0 : Math.min(1, done / audience);
  if (input.status === 'sent') fraction = 1;
  if (active) fraction = Math.min(fraction, NOT_FULL);
  return { targeted, audience, growing, done, fraction, active, eta: etaOf(input, active, audience - done, now) };
}

function etaOf(input: ProgressInput, active: boolean, left: number, now: number): Eta {
  const { pace } = input;
  if (!active) return { kind: 'none' };
  if (input.status === 'paused' || pace?.paused === true) return { kind: 'paused' };
  if (pace?.eta !== null && pace?.eta !== undefined && !Number.isNaN(Date.parse(pace.eta))) return { kind: 'at', at: Date.parse(pace.eta) };
  const rate = pace?.rate_per_minute ?? null;
  if (rate !== null && rate > 0 && left > 0) return { kind: 'at', at: now + Math.ceil((left / rate) * 60_000) };
  return { kind: 'unpaced' };
}

/** Minutes a paced send still needs for `left` devices at `ratePerMinute` (for the confirmation of a new rate). */
export function minutesLeft(left: number, ratePerMinute: number): number {
  return ratePerMinute <= 0 ? Number.POSITIVE_INFINITY : Math.ceil(Math.max(0, left) / ratePerMinute);
}
