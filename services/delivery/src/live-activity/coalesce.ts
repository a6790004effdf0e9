/** What the sender does with one update of an activity now. */
export type CoalesceStep = { kind: 'send' } | { kind: 'wait'; ms: number } | { kind: 'coalesce'; into: string };

export interface CoalesceInput {
  /** When the API accepted this update. */
  createdAtMs: number;
  /** The next newer update request of the same activity (by timestamp), if one was accepted. */
  newer?: { id: string; createdAtMs: number } | undefined;
  /** When this activity was last sent a push (an update or an end), if ever. */
  lastSentAtMs?: number | undefined;
  nowMs: number;
  /** The per-activity rate as its interval (LIVE_ACTIVITY_UPDATE_INTERVAL_MS); 0 turns coalescing off. */
  intervalMs: number;
}

/**
 * The per-activity rate for one update (pure; docs/guides/live-activities.md,
 * "Updates faster than the rate"). An update followed within the interval by
 * a newer one of the same activity is coalesced into it: the newer carries
 * the later content_state, so the older is never sent. Otherwise it waits
 * until the interval since the activity's last push has passed (the caller
 * then asks again, with newer requests that came meanwhile), then is sent.
 * A chain of quick updates thus reaches the device as its last one, at most
 * once per interval. Starts and ends are never held or coalesced.
 */
export function coalesceStep(input: CoalesceInput): CoalesceStep {
  if (input.intervalMs <= 0) return { kind: 'send' };
  if (input.newer !== undefined && input.newer.createdAtMs - input.createdAtMs < input.intervalMs) return { kind: 'coalesce', into: input.newer.id };
  if (input.lastSentAtMs !== undefined) {
    const left = input.lastSentAtMs + input.intervalMs - input.nowMs;
    if (left > 0) return { kind: 'wait', ms: Math.min(left, input.intervalMs) };
  }
  return { kind: 'send' };
}
