import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination } from './common.ts';
import { PaceInput, PushOptionsInput, ScheduleInput } from './push-options.ts';
import { TemplateSendInput } from './templates.ts';
import { DecisionView, SplitTestInput } from './split-test.ts';

export const MAX_TARGETS = 10_000;
/** A test send names a few devices: more would be a campaign hidden from the list. */
export const MAX_TEST_TARGETS = 20;

const leaf = (description: string) => Type.Optional(Type.String({ description }));

/**
 * A target as the route checks its shape: a plain string, or an object with
 * one of these keys. Whatever an object holds further (unknown keys, empty
 * lists, nesting past the limits, wrong types) is checked by libs/audience
 * `targetProblems`, which names the path of the offending node in its 422.
 */
export const TargetSchema = Type.Union(
  [
    Type.String({ minLength: 1, maxLength: 4096, description: 'By its form: a UUID names the device or topic with that id, a push token the device holding it, anything else the topic of that name (docs/guides/targets.md)' }),
    Type.Object(
      {
        topic: leaf('The subscribers of the topic with this name or id'),
        device_id: leaf('Exactly the device with this id'),
        token: leaf('Exactly the device holding this push token'),
        external_id: leaf("A user's devices"),
        metadata: Type.Optional(
          Type.Record(Type.String(), Type.Unknown(), {
            description: 'Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal)',
          }),
        ),
        platform: leaf('Devices of this platform (ios, android, web, huawei)'),
        locale: leaf('Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA)'),
        timezone: leaf('Devices in this IANA time zone'),
        segment: leaf('The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification'),
        and: Type.Optional(Type.Array(Type.Unknown(), { description: 'Targets every one of which names the device' })),
        or: Type.Optional(Type.Array(Type.Unknown(), { description: 'Targets any one of which names the device' })),
        not: Type.Optional(Type.Unknown({ description: 'A target that must not name the device' })),
      },
      { description: 'A typed target or an expression: exactly one key; and/or/not nest up to 8 deep, 200 nodes a target, 100 children a list (docs/guides/targets.md)' },
    ),
  ],
  {
    description:
      'Who receives the notification: the union of all targets (each OR\'d), active devices only, each device once. A plain string names a device, a token\'s holder or a topic by its form; ' +
      '`{"topic": …}`, `{"device_id": …}`, `{"token": …}`, `{"external_id": …}`, `{"metadata": {...}}`, `{"platform": …}`, `{"locale": …}` and `{"timezone": …}` name one kind; ' +
      '`{"segment": …}` a saved segment; `{"and": [...]}`, `{"or": [...]}` and `{"not": …}` combine them',
  },
);

export const NotificationRequest = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 4096, description: 'Required unless `template` is given' })),
    body: Type.Optional(Type.String({ maxLength: 4096, description: 'Required unless `template` is given' })),
    targets: Type.Array(TargetSchema, { minItems: 1, maxItems: MAX_TARGETS }),
    ...TemplateSendInput,
    ...SplitTestInput,
    test_send: Type.Optional(
      Type.Boolean({
        description: `A test send: delivered like any other to the devices named (device_id, token or external_id targets only, at most ${MAX_TEST_TARGETS}), marked in its event, and left out of the notification list and its counts unless \`include_tests=true\``,
      }),
    ),
    link_to: Type.Optional(Type.String({ maxLength: 4096 })),
    group: Type.Optional(Type.String({ maxLength: 256, description: 'Groups notifications on the device: APNs thread-id, Android notification tag' })),
    ...PushOptionsInput,
    ...ScheduleInput,
    ...PaceInput,
  },
  { additionalProperties: false },
);

export const Counts = Type.Object({
  targeted: Type.Integer({ description: 'Active devices the audience resolved to (so far, while dispatching)' }),
  sent: Type.Integer({ description: 'Devices a provider answered for: delivered + failed + invalid' }),
  delivered: Type.Integer(),
  failed: Type.Integer(),
  invalid: Type.Integer({ description: 'Token rejected by the provider; the device was deactivated' }),
  cancelled: Type.Integer({ description: 'Not sent: cancelled before its batch went out' }),
  expired: Type.Integer({ description: 'Not sent: `max_duration` ran out before its batch went out' }),
  capped: Type.Integer({ description: 'Not sent: a project frequency cap with `on_cap: drop` (campaign sends only)' }),
  deferred: Type.Integer({ description: 'Held now by a frequency cap (`on_cap: defer`) or quiet hours; each moves to its real outcome when released' }),
  held_out: Type.Optional(Type.Integer({ description: "Not sent: in an A/B send's holdout" })),
  opened: Type.Integer(),
});

export const NOTIFICATION_STATUSES = ['scheduled', 'queued', 'sending', 'paused', 'sent', 'cancelled', 'expired'] as const;
export const NotificationStatus = Type.Enum(NOTIFICATION_STATUSES, {
  description:
    '`scheduled`: held until `send_at` / `send_at_local`; `queued`: accepted, audience not yet resolved; `sending`: dispatched, outcomes outstanding; `paused`: held by PATCH `{"state": "paused"}` until resumed; ' +
    '`sent`: every targeted device has an outcome (`expired` devices included: `max_duration` ran out); `cancelled`: cancelled before it finished; `expired`: too old to send',
});

const Timestamp = Type.String({ format: 'date-time' });

const Pace = Type.Object(
  {
    rate_per_minute: Type.Union([Type.Integer(), Type.Null()], { description: 'The pace in effect (requested, or set by the latest PATCH); null: unpaced' }),
    paused: Type.Boolean(),
    audience_estimate: Type.Union([Type.Integer(), Type.Null()], { description: "The send's audience: the devices of the partitions already dispatched plus each other partition's count by its fan-out at its second step (AudienceEstimated; an upper bound for several or overlapping targets). Null until a partition counted. What progress and ETA are measured against" }),
    progress: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'Devices with an outcome / the audience' }),
    eta: Type.Union([Timestamp, Type.Null()], { description: 'When the last push should leave at the current pace (null: paused, unpaced or finished)' }),
  },
  { description: 'Progress of a paced or paused send: its current rate, progress and ETA' },
);

export const Notification = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    body: Type.String(),
    targets: Type.Array(TargetSchema),
    link_to: Type.Union([Type.String(), Type.Null()]),
    group: Type.Union([Type.String(), Type.Null()]),
    status: NotificationStatus,
    created_at: Timestamp,
    counts: Type.Optional(Counts),
    counts_by_provider: Type.Optional(Type.Object({ apns: Counts, fcm: Counts, webpush: Type.Optional(Counts), hms: Type.Optional(Counts) }, { description: '`webpush` once the notification targeted a web device, `hms` a Huawei device' })),
    counts_by_variant: Type.Optional(
      Type.Record(Type.String(), Counts, { description: 'An A/B send: counts by variant name, `holdout` (reported `held_out`) and `remainder` (sent the chosen variant after the decision)' }),
    ),
    decision: Type.Optional(DecisionView),
    test_send: Type.Optional(Type.Boolean({ description: 'Present (true) on a test send' })),
    replaces: Type.Optional(Type.String({ format: 'uuid', description: 'An edit of a scheduled send: the notification this one replaced (cancelled)' })),
    replaced_by: Type.Optional(Type.String({ format: 'uuid', description: 'A scheduled send that was edited (POST …/replace): the notification that replaced it (this one is cancelled)' })),
    dispatched_at: Type.Optional(Type.Union([Timestamp, Type.Null()], { description: 'When the audience was first resolved and queued' })),
    finished_at: Type.Optional(Type.Union([Timestamp, Type.Null()], { description: 'When it became sent, cancelled or expired' })),
    priority_lane: Type.Optional(
      Type.Union([Type.Literal('transactional'), Type.Literal('campaign'), Type.Null()], {
        description: 'The lane the request asked for; null: decided by size per device partition (a partition whose share fits 1,000 devices goes transactional)',
      }),
    ),
    pace: Type.Optional(Pace),
    request: Type.Optional(
      Type.Object(
        { title: Type.String(), body: Type.String(), targets: Type.Array(TargetSchema) },
        { additionalProperties: true, description: 'The `notification` object as the client sent it (push options and schedule included)' },
      ),
    ),
  },
  { $id: 'Notification' },
);

export const sendNotificationSchema = {
  summary: 'Send a notification',
  description:
    'Answers 201 once Kafka has acknowledged the request; delivery happens after. Every problem in the body is listed at once (422). ' +
    'With an `Idempotency-Key` header, repeating the request within 24 h returns the first notification and queues nothing new.',
  tags: ['notifications'],
  security: BEARER,
  headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
  body: Type.Object({ notification: NotificationRequest }, { additionalProperties: false }),
  response: { 201: Type.Object({ data: Notification }), ...errorResponses(400, 401, 409, 413, 415, 422, 503) },
} as const;

const NotificationId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The notification id' }) });

export const replaceNotificationSchema = {
  summary: 'Edit or reschedule a scheduled notification',
  description:
    'Herald never changes a request once accepted (its event is the record): an edit is a new notification whose NotificationRequested carries `replaces` (the old id), ' +
    'published together with the old one\'s NotificationCancelled. The body is a whole send, checked as POST /api/v1/notifications checks it (422, the old send untouched). ' +
    '201 with the new notification; 409 when the old one is no longer `scheduled` (it fired, was cancelled or was already replaced). With an `Idempotency-Key`, a repeat answers the same new notification.',
  tags: ['notifications'],
  security: BEARER,
  params: NotificationId,
  headers: sendNotificationSchema.headers,
  body: sendNotificationSchema.body,
  response: { 201: Type.Object({ data: Notification }), ...errorResponses(400, 401, 404, 409, 413, 415, 422, 503) },
} as const;

export const listNotificationsSchema = {
  summary: 'The notifications of the project, newest first',
  tags: ['notifications'],
  security: BEARER,
  description:
    'Search with `q` (words in the title, as typed, case-insensitive), `created_from` / `created_to` (created at or after / before), `outcome` (at least one device had it); ' +
    'a search reads the project\'s notifications in the date range (the whole project without one) and its `pagination.count` stops at 10,000.',
  querystring: Type.Object(
    {
      ...PageQuery,
      status: Type.Optional(NotificationStatus),
      q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Words in the title, matched as typed, case-insensitive' })),
      created_from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after this instant' })),
      created_to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before this instant' })),
      outcome: Type.Optional(Type.Enum(['delivered', 'failed', 'invalid', 'cancelled', 'expired', 'capped', 'opened'], { description: 'At least one device had this outcome' })),
      include_tests: Type.Optional(Type.Boolean({ description: 'List test sends (`test_send`) too, and count them; default false' })),
    },
    { additionalProperties: false },
  ),
  response: { 200: Type.Object({ data: Type.Array(Notification), pagination: Pagination }), ...errorResponses(400, 401) },
} as const;

export const getNotificationSchema = {
  summary: 'A notification with its status, delivery counts (in all and per provider), timestamps and the request as sent',
  tags: ['notifications'],
  security: BEARER,
  params: NotificationId,
  response: { 200: Type.Object({ data: Notification }), ...errorResponses(400, 401, 404) },
} as const;

export const cancelNotificationSchema = {
  summary: 'Cancel a notification',
  description:
    'Batches not yet sent are not sent: their devices are reported `cancelled`; batches already with a provider still complete. ' +
    '202 with the notification as cancelled; repeating it is harmless (202 again). 409 once the notification was sent or expired. ' +
    'Works on a scheduled notification until its time.',
  tags: ['notifications'],
  security: BEARER,
  params: NotificationId,
  response: { 202: Type.Object({ data: Notification }), ...errorResponses(400, 401, 404, 409, 503) },
} as const;

export const steerNotificationSchema = {
  summary: 'Pause, resume or re-pace a notification in flight',
  description:
    '`{"state": "paused"}` stops queueing and sending within a second across every delivery instance; its devices are held, not lost. ' +
    '`{"state": "sending"}` resumes where it stopped. `rate_per_minute` sets the pace from now on (also on an unpaced send; 422 on a `priority_lane: "transactional"` one, which is never paced). ' +
    '202 with the notification as steered; 409 once it finished (sent, cancelled, expired). Cancel still works while paused.',
  tags: ['notifications'],
  security: BEARER,
  params: NotificationId,
  body: Type.Object(
    {
      state: Type.Optional(Type.Enum(['paused', 'sending'], { description: '`paused` or `sending` (resume)' })),
      rate_per_minute: Type.Optional(PaceInput.rate_per_minute),
    },
    { additionalProperties: false },
  ),
  response: { 202: Type.Object({ data: Notification }), ...errorResponses(400, 401, 404, 409, 422, 503) },
} as const;

export const openNotificationSchema = {
  summary: 'Record that a device opened a notification (called by the device; no bearer key)',
  description:
    'The device echoes `project_id` and its own token from the payload it received. 204 when the token belongs to a recipient; ' +
    'repeating an open answers 204 and records nothing new.',
  tags: ['notifications'],
  params: NotificationId,
  body: Type.Object(
    { project_id: Type.String({ minLength: 1 }), token: Type.String({ minLength: 1, maxLength: 4096 }) },
    { additionalProperties: false },
  ),
  response: { 204: Type.Null({ description: 'Recorded' }), ...errorResponses(400, 404, 413, 415, 503) },
} as const;
