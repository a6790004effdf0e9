/**
 * The APNs request for a Live Activity (push type `liveactivity`), after
 * Apple's "Starting and updating Live Activities with ActivityKit push
 * notifications":
 * https://developer.apple.com/documentation/activitykit/starting-and-updating-live-activities-with-activitykit-push-notifications
 *
 * Pure: the caller fixes `timestamp` once, when the request is accepted
 * (nextLiveActivityTimestamp), so every retry of one update carries the same
 * value and the device drops any update older than one it has shown.
 */

export type LiveActivityEvent = 'start' | 'update' | 'end';

export interface LiveActivityMessage {
  event: LiveActivityEvent;
  /** UNIX seconds; strictly increasing per activity (nextLiveActivityTimestamp). */
  timestamp: number;
  /** The app's `ActivityContent.ContentState`, as JSON. Required by Apple for start and update. */
  content_state?: Record<string, unknown>;
  /** start only: the Swift type name of the `ActivityAttributes` and its static values. */
  attributes_type?: string;
  attributes?: Record<string, unknown>;
  /** Shown with the update (an alert makes the device light up; required for start by Apple). */
  alert?: { title: string; body: string; sound?: string };
  /** UNIX seconds: after this the system marks the content stale. */
  stale_date?: number;
  /** end: UNIX seconds when the ended activity leaves the Lock Screen. */
  dismissal_date?: number;
  /** Which of several activities the system features in the Dynamic Island (0 to 100 by convention). */
  relevance_score?: number;
  /** 10: now (counts against Apple's budget); 5: when power allows. Default 10. */
  priority?: 5 | 10;
}

export interface LiveActivityPayload {
  aps: {
    timestamp: number;
    event: LiveActivityEvent;
    'content-state'?: Record<string, unknown>;
    'attributes-type'?: string;
    attributes?: Record<string, unknown>;
    alert?: { title: string; body: string; sound?: string };
    'stale-date'?: number;
    'dismissal-date'?: number;
    'relevance-score'?: number;
  };
}

/** Body plus headers; the client adds `apns-topic` (liveActivityTopic of the project's bundle id), as for ordinary pushes. */
export interface LiveActivityRequest {
  payload: LiveActivityPayload;
  pushType: 'liveactivity';
  priority: 5 | 10;
}

/** Apple's topic for Live Activity pushes: `<bundle id>.push-type.liveactivity`. */
export function liveActivityTopic(bundleId: string): string {
  return `${bundleId}.push-type.liveactivity`;
}

/**
 * The timestamp for the next push of an activity: now, or one second past
 * the last one when the clock has not moved on (two updates in one second,
 * or a clock step backwards), so the sequence never repeats or goes down.
 */
export function nextLiveActivityTimestamp(previous: number | undefined, nowMs: number): number {
  const now = Math.floor(nowMs / 1000);
  return previous === undefined || now > previous ? now : previous + 1;
}

export function buildLiveActivityPayload(message: LiveActivityMessage): LiveActivityPayload {
  const start = message.event === 'start';
  return {
    aps: {
      timestamp: message.timestamp,
      event: message.event,
      ...(message.content_state === undefined ? {} : { 'content-state': message.content_state }),
      ...(start && message.attributes_type !== undefined ? { 'attributes-type': message.attributes_type } : {}),
      ...(start ? { attributes: message.attributes ?? {} } : {}),
      ...(message.alert === undefined ? {} : { alert: message.alert }),
      ...(message.stale_date === undefined ? {} : { 'stale-date': message.stale_date }),
      ...(message.event === 'end' && message.dismissal_date !== undefined ? { 'dismissal-date': message.dismissal_date } : {}),
      ...(message.relevance_score === undefined ? {} : { 'relevance-score': message.relevance_score }),
    },
  };
}

export function buildLiveActivityRequest(message: LiveActivityMessage): LiveActivityRequest {
  return { payload: buildLiveActivityPayload(message), pushType: 'liveactivity', priority: message.priority ?? 10 };
}
