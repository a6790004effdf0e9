/**
 * What the fake APNs checks of a Live Activity push (`apns-push-type:
 * liveactivity`), after Apple's "Starting and updating Live Activities with
 * ActivityKit push notifications". Real APNs accepts some of these and the
 * device then drops the push silently (an older timestamp, no content
 * state); the fake refuses them with 400 and a reason of its own
 * (`LiveActivity…`) so a test sees the mistake instead of a lost update.
 */

export const LIVE_ACTIVITY_TOPIC_SUFFIX = '.push-type.liveactivity';
const EVENTS = new Set(['start', 'update', 'end']);

export type LiveActivityCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The bundle id a Live Activity topic names, or undefined when it lacks Apple's suffix. */
export function liveActivityBundleId(topic: string): string | undefined {
  return topic.endsWith(LIVE_ACTIVITY_TOPIC_SUFFIX) && topic.length > LIVE_ACTIVITY_TOPIC_SUFFIX.length
    ? topic.slice(0, -LIVE_ACTIVITY_TOPIC_SUFFIX.length)
    : undefined;
}

/**
 * Pure: the body of a `liveactivity` push, given the last timestamp this
 * token accepted (undefined: none yet). Its timestamp must be strictly
 * greater, so a retried older update can never overwrite a newer one.
 */
export function checkLiveActivityPush(topic: string, body: Buffer, lastTimestamp: number | undefined): LiveActivityCheck {
  const fail = (reason: string): LiveActivityCheck => ({ ok: false, reason });
  if (liveActivityBundleId(topic) === undefined) return fail('BadTopic');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return fail('LiveActivityPayloadNotJson');
  }
  const aps = isObject(parsed) ? parsed.aps : undefined;
  if (!isObject(aps)) return fail('LiveActivityMissingAps');
  const { timestamp, event } = aps;
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp) || timestamp <= 0) return fail('LiveActivityMissingTimestamp');
  if (typeof event !== 'string' || !EVENTS.has(event)) return fail('LiveActivityBadEvent');
  if ((event === 'start' || event === 'update') && !isObject(aps['content-state'])) return fail('LiveActivityMissingContentState');
  if (event === 'start' && (typeof aps['attributes-type'] !== 'string' || !isObject(aps.attributes))) return fail('LiveActivityMissingAttributes');
  if (lastTimestamp !== undefined && timestamp <= lastTimestamp) return fail('LiveActivityTimestampNotIncreasing');
  return { ok: true, timestamp };
}
