import { buildLiveActivityPayload, type LiveActivityMessage } from '@herald/push-payloads';

/** Devices or users a start names at most: a Live Activity start is addressed, not broadcast. */
export const LIVE_ACTIVITY_MAX_TARGETS = 20;
/** Apple's bound on a Live Activity push's payload. */
export const LIVE_ACTIVITY_PAYLOAD_BYTES = 4096;

export interface LiveActivityInput {
  event: 'start' | 'update' | 'end';
  activity_id?: string | undefined;
  targets?: ReadonlyArray<{ device_id: string } | { external_id: string }> | undefined;
  attributes_type?: string | undefined;
  attributes?: Record<string, unknown> | undefined;
  content_state?: Record<string, unknown> | undefined;
  alert?: { title: string; body: string; sound?: string | undefined } | undefined;
  stale_date?: number | undefined;
  dismissal_date?: number | undefined;
  relevance_score?: number | undefined;
  priority?: 5 | 10 | undefined;
}

/**
 * What the event does not allow, each naming its field (422). Pure. A start
 * reaches push-to-start tokens (targets, attributes type and values, an
 * alert, as Apple requires); update and end reach one activity's update
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
