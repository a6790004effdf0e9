import { targetProblems } from '@herald/audience';
import { buildLiveActivityPayload, type LiveActivityMessage } from '@herald/push-payloads';

/** Targets a start names at most (each may be a topic or an expression; the tokens it reaches are bounded when sent). */
export const LIVE_ACTIVITY_MAX_TARGETS = 100;
/** Apple's bound on a Live Activity push's payload. */
export const LIVE_ACTIVITY_PAYLOAD_BYTES = 4096;

export interface LiveActivityInput {
  event: 'start' | 'update' | 'end';
  activity_id?: string | undefined;
  targets?: readonly unknown[] | undefined;
  attributes_type?: string | undefined;
  attributes?: Record<string, unknown> | undefined;
  content_state?: Record<string, unknown> | undefined;
  alert?: { title: string; body: string; sound?: string | undefined } | undefined;
  stale_date?: number | undefined;
  dismissal_date?: number | undefined;
  relevance_score?: number | undefined;
  priority?: 5 | 10 | undefined;
}

/** Paths of the saved-segment leaves in a start's targets (a segment is pinned per notification; a start does not pin). Pure. */
export function segmentPaths(targets: readonly unknown[], prefix = 'targets'): string[] {
  const found: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child, at) => walk(child, `${path}[${at}]`));
    for (const [key, value] of Object.entries(node)) {
      if (key === 'segment') found.push(`${path}.segment`);
      else walk(value, `${path}.${key}`);
    }
  };
  targets.forEach((target, at) => walk(target, `${prefix}[${at}]`));
  return found;
}

/**
 * What the event does not allow, each naming its field (422). Pure. A start
 * reaches push-to-start tokens (targets as for notifications, checked by
 * libs/audience's targetProblems; attributes type and values, an alert, as
 * Apple requires); update and end reach one activity's update
 * tokens; the built payload must fit Apple's 4 KB.
 */
export function liveActivityProblems(input: LiveActivityInput): string[] {
  const problems: string[] = [];
  const need = (field: keyof LiveActivityInput, why: string) => {
    if (input[field] === undefined) problems.push(`${field}: required ${why}`);
  };
  const refuse = (field: keyof LiveActivityInput, why: string) => {
    if (input[field] !== undefined) problems.push(`${field}: not allowed ${why}`);
  };
  if (input.event === 'start') {
    need('targets', 'for start (the devices whose push-to-start token starts the activity)');
    need('attributes_type', 'for start');
    need('attributes', 'for start');
    need('content_state', 'for start');
    need('alert', 'for start (Apple requires an alert to start an activity)');
    refuse('activity_id', 'for start (iOS gives the new activity its id)');
    refuse('dismissal_date', 'for start (end only)');
    if (input.targets !== undefined) {
      problems.push(...targetProblems(input.targets, 'targets'));
      for (const path of segmentPaths(input.targets)) problems.push(`${path}: saved segments are not supported for Live Activities (name their filter instead)`);
    }
  } else {
    need('activity_id', `for ${input.event}`);
    refuse('targets', `for ${input.event} (the activity's update tokens receive it)`);
    refuse('attributes', `for ${input.event} (start only)`);
    refuse('attributes_type', `for ${input.event} (start only)`);
    if (input.event === 'update') {
      need('content_state', 'for update');
      refuse('dismissal_date', 'for update (end only)');
    }
  }
  if (problems.length === 0) {
    const bytes = Buffer.byteLength(JSON.stringify(buildLiveActivityPayload(liveActivityMessage(input, 0))));
    // Room for a timestamp of any size: the real one is fixed later.
    if (bytes + 10 > LIVE_ACTIVITY_PAYLOAD_BYTES) problems.push(`content_state: the APNs payload would be ${bytes} bytes, over Apple's ${LIVE_ACTIVITY_PAYLOAD_BYTES}`);
  }
  return problems;
}

/** The builder's message for a request at `timestamp` (the same mapping the sender uses). */
export function liveActivityMessage(input: LiveActivityInput, timestamp: number): LiveActivityMessage {
  return {
    event: input.event,
    timestamp,
    ...(input.content_state === undefined ? {} : { content_state: input.content_state }),
    ...(input.attributes_type === undefined ? {} : { attributes_type: input.attributes_type }),
    ...(input.attributes === undefined ? {} : { attributes: input.attributes }),
    ...(input.alert === undefined ? {} : { alert: { title: input.alert.title, body: input.alert.body, ...(input.alert.sound === undefined ? {} : { sound: input.alert.sound }) } }),
    ...(input.stale_date === undefined ? {} : { stale_date: input.stale_date }),
    ...(input.dismissal_date === undefined ? {} : { dismissal_date: input.dismissal_date }),
    ...(input.relevance_score === undefined ? {} : { relevance_score: input.relevance_score }),
    priority: input.priority ?? 10,
  };
}

/** A push's tokens by outcome (pure): its outcomes, or, coalesced, the tokens it would have reached. */
export function liveActivityCounts(outcomes: ReadonlyArray<{ outcome: 'delivered' | 'invalid' | 'failed' }>, coalescedTokens: number): { delivered: number; invalid: number; failed: number; coalesced: number } {
  const counts = { delivered: 0, invalid: 0, failed: 0, coalesced: coalescedTokens };
  for (const row of outcomes) counts[row.outcome] += 1;
  return counts;
}
