import { deviceTokenProblem } from '@herald/push-payloads';

/**
 * What a plain target string names, decided by its form alone
 * (docs/guides/targets.md). Deciding by form, not by what the project holds,
 * is what keeps sends exact whatever strangers register and in whatever
 * order: no registration can make a string mean something else.
 *
 * - `id`: a UUID, the form of every device id and topic id. Both are
 *   derived (UUIDv5 of project and token or name), so nobody can choose
 *   one: the string names the device or the topic with that id.
 * - `token`: a provider token's form: APNs hex (64 to 200 even digits) or an
 *   FCM registration token, `<instance id>:<body>`. It names the device
 *   holding that token, never a topic.
 * - `topic`: anything else names the project's topic of that name.
 */
export type PlainTargetKind = 'id' | 'token' | 'topic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An FCM token carries the instance id before a ':' (https://firebase.google.com/docs/cloud-messaging/manage-tokens). */
function hasFcmTokenForm(value: string): boolean {
  return value.includes(':') && deviceTokenProblem('android', value) === undefined;
}

export function plainTargetKind(value: string): PlainTargetKind {
  if (UUID.test(value)) return 'id';
  if (deviceTokenProblem('ios', value) === undefined || hasFcmTokenForm(value)) return 'token';
  return 'topic';
}

/**
 * Why `name` cannot be a new topic's name, naming `field`, or undefined
 * when it can: a plain target string of an id's or a token's form never
 * names a topic, so a topic under such a name could only be reached by a
 * typed `{"topic": …}` target; it is refused rather than made a trap.
 */
export function topicNameProblem(field: string, name: string): string | undefined {
  const kind = plainTargetKind(name);
  if (kind === 'topic') return undefined;
  const form = kind === 'id' ? 'an id (a UUID)' : 'a device token (APNs: 64 to 200 hex digits; FCM: letters, digits, "-", "_" with a ":")';
  return `${field} ${JSON.stringify(name)} cannot name a topic: it has the form of ${form}, which a target string always names as a ${kind === 'id' ? 'device or topic id' : 'token'}`;
}
