import Type from 'typebox';
import { StringMap } from './common.ts';

const RawObject = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

/**
 * What a notification may carry beyond title and body (the request side of
 * libs/events' PushOptionFields, with the limits the providers set). Where
 * each field lands at APNs and FCM: docs/reference/payload-fields.md. The whole
 * payload must still fit the providers' 4 KB (checked at send).
 */
export const PushOptionsInput = {
  data: Type.Optional(Type.Unsafe<Record<string, string>>({ ...StringMap, description: 'Custom key/value pairs for the app: APNs top-level keys, FCM `data`' })),
  badge: Type.Optional(Type.Integer({ minimum: 0, maximum: 99_999, description: 'App icon badge: APNs `aps.badge`, FCM `android.notification.notification_count`' })),
  sound: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Sound file name or `default`: APNs `aps.sound`, FCM `android.notification.sound`' })),
  ttl: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_419_200, description: 'Seconds the provider keeps trying (≤ 28 days; 0: now or never): APNs `apns-expiration`, FCM `android.ttl`' })),
  priority: Type.Optional(Type.Enum(['high', 'normal'], { description: 'APNs `apns-priority` 10 / 5, FCM `android.priority`' })),
  collapse_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Replaces an earlier notification with the same id: APNs `apns-collapse-id` (≤ 64 bytes), FCM `android.collapse_key`' })),
  content_available: Type.Optional(Type.Boolean({ description: 'Background (silent) push: APNs `aps.content-available` (push type `background`, priority 5 when title and body are empty), FCM data-only message' })),
  mutable_content: Type.Optional(Type.Boolean({ description: 'Lets a Notification Service Extension modify it: APNs `aps.mutable-content` (no FCM equivalent)' })),
  image: Type.Optional(Type.String({ maxLength: 2048, pattern: '^https://', description: 'https URL of an image: APNs custom key `image`, FCM `notification.image`' })),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Actionable notification type: APNs `aps.category`, FCM `android.notification.click_action`' })),
  thread_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Groups notifications (wins over `group`): APNs `aps.thread-id`, FCM `android.notification.tag`' })),
  apns: Type.Optional(RawObject('Merged last into the APNs JSON body (objects key by key; other values replace), e.g. {"aps": {"interruption-level": "time-sensitive"}}')),
  fcm: Type.Optional(RawObject("Merged last into the FCM message as firebase-admin builds it (its field names), e.g. {\"android\": {\"notification\": {\"channelId\": \"sales\"}}}; may not set the target (token, topic, condition)")),
};

/** When to send, instead of now (at most one of the two; both within 30 days). */
export const ScheduleInput = {
  send_at: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
      description: 'RFC 3339 instant to send at, at most 30 days ahead (a time up to a minute past sends now)',
    }),
  ),
  send_at_local: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$',
      description:
        "Wall-clock time (\"2026-12-01T09:00\") at which each device gets it in its own `timezone` (devices without one: the project's default, else UTC); at most 30 days ahead. A zone whose time has already passed gets it at once",
    }),
  ),
};

/** How fast and how long a campaign goes (docs/internals/campaign-control.md). */
export const PaceInput = {
  rate_per_minute: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100_000_000,
      description: "Pushes per minute, across every delivery instance together, sent evenly (a paced campaign); absent: the project's default (`herald projects pace`), else as fast as Herald goes. PATCH changes it in flight",
    }),
  ),
  max_duration: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 30 * 24 * 60 * 60,
      description: 'Seconds from when the send is due (now, `send_at`, or each local-time slot) after which nothing more is sent: the devices left are reported `expired`',
    }),
  ),
  priority_lane: Type.Optional(
    Type.Union([Type.Literal('transactional'), Type.Literal('campaign')], {
      description:
        "`transactional`: sent on the express lane ahead of the project's campaigns, never paced, not held by the project's budget (`herald projects budget`) for its first 11,000 devices per partition, and not subject to the project's frequency cap and quiet hours (`herald projects caps` / `quiet-hours`). " +
        "`campaign`: paced (its own `rate_per_minute` or the project's default), held by the project's budget, capped (devices over the cap are reported `capped` or `deferred`) and kept quiet (devices in quiet hours are `deferred` to their end) from its first push. " +
        'Absent: decided per device partition by size: a partition whose share of the audience fits its first step (1,000 devices) sends it as transactional, a larger one as campaign (docs/internals/campaign-control.md)',
    }),
  ),
};

/** Lane and pace together: a transactional send is never paced (pure). */
export function laneProblems(input: { priority_lane?: unknown; rate_per_minute?: unknown } | undefined): string[] {
  if (input?.priority_lane === 'transactional' && input.rate_per_minute !== undefined) return ['notification.rate_per_minute cannot be set on a priority_lane "transactional" send (transactional sends are never paced)'];
  return [];
}

export const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;
const PAST_GRACE_MS = 60_000;
/** The widest gap between a wall-clock time and the instants it names across zones (UTC−12 … UTC+14). */
const ZONE_SPREAD_MS = 14 * 60 * 60 * 1000;

/** Problems with the schedule fields the schema cannot see, each naming the field (pure; `now` from the movable clock). */
export function scheduleProblems(input: { send_at?: unknown; send_at_local?: unknown } | undefined, now: number): string[] {
  if (typeof input?.send_at === 'string' && typeof input.send_at_local === 'string') return ['notification.send_at and notification.send_at_local cannot both be set'];
  if (typeof input?.send_at === 'string') {
    const at = Date.parse(input.send_at);
    if (Number.isNaN(at)) return ['notification.send_at is not a valid date-time'];
    if (at > now + MAX_SCHEDULE_AHEAD_MS) return ['notification.send_at must be at most 30 days ahead'];
    if (at < now - PAST_GRACE_MS) return ['notification.send_at is in the past'];
  }
  if (typeof input?.send_at_local === 'string') {
    const asUtc = Date.parse(`${input.send_at_local}Z`);
    if (Number.isNaN(asUtc)) return ['notification.send_at_local is not a valid local date-time'];
    if (asUtc - ZONE_SPREAD_MS > now + MAX_SCHEDULE_AHEAD_MS) return ['notification.send_at_local must be at most 30 days ahead'];
    if (asUtc + ZONE_SPREAD_MS < now - PAST_GRACE_MS) return ['notification.send_at_local has passed in every time zone'];
  }
  return [];
}

/** Data keys FCM refuses (its reserved words; its reserved `google.`/`gcm.` prefixes contain a dot, which no key may), plus Herald's own keys and APNs' `aps`. */
const RESERVED_DATA_KEYS = new Set(['from', 'notification', 'message_type', 'collapse_key', 'aps', 'notification_id', 'project_id', 'link_to']);
const FCM_TARGET_KEYS = ['token', 'topic', 'condition'];

/** Problems the schema cannot express, each naming the field; empty when there are none. */
export function pushOptionProblems(input: { data?: unknown; fcm?: unknown } | undefined): string[] {
  const problems: string[] = [];
  if (typeof input?.data === 'object' && input.data !== null) {
    for (const key of Object.keys(input.data)) {
      if (RESERVED_DATA_KEYS.has(key)) problems.push(`notification.data.${key} is a reserved key (${[...RESERVED_DATA_KEYS].join(', ')})`);
    }
  }
  if (typeof input?.fcm === 'object' && input.fcm !== null) {
    for (const key of FCM_TARGET_KEYS) if (key in input.fcm) problems.push(`notification.fcm.${key} may not be set: Herald sends to each device's token`);
  }
  return problems;
}
