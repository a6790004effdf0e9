import Type from 'typebox';
import { BEARER, errorResponses } from './common.ts';
import { RECEIPT_OUTCOMES } from './receipts.ts';

/** Explain: answers read from the event log (libs/explain), see docs/reference/explain.md. */

const Time = Type.String({ format: 'date-time' });
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Provider = Type.Enum(['apns', 'fcm', 'webpush', 'hms']);
const LogPlace = Type.Object(
  { topic: Type.String(), partition: Type.Integer(), offset: Type.Integer() },
  { description: 'Where the fact is in the log (logical topic name)' },
);

const Receipt = Type.Object({
  notification_id: Type.String(),
  batch_id: Type.String(),
  provider: Provider,
  outcome: Type.Enum([...RECEIPT_OUTCOMES]),
  reason: NullableString,
  attempts: Type.Union([Type.Integer(), Type.Null()]),
  rule: Type.Optional(Type.String({ description: 'capped / deferred: the frequency cap or quiet hours that applied' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'deferred: when it goes out' })),
  at: Time,
});

const Evidence = Type.Object(
  {
    provider: Provider,
    reason: Type.String({ description: "The provider's reason code (BadDeviceToken, Unregistered, UNREGISTERED, …)" }),
    provider_timestamp: Type.Union([Time, Type.Null()], { description: 'APNs 410: when Apple says the token stopped being valid' }),
    notification_id: Type.Union([Type.String(), Type.Null()], { description: 'The send whose answer it was' }),
  },
  { description: "The provider's answer that deactivated the device (DeviceDeactivated)" },
);

const TimelineEntry = Type.Object({
  at: Time,
  kind: Type.Enum(['registered', 'reactivated', 'token_refreshed', 'metadata_changed', 'deactivated', 'deactivation_ignored', 'unregistered', 'unlinked', 'receipt', 'opened']),
  summary: Type.String(),
  log: LogPlace,
  notification_id: Type.Optional(Type.String()),
  receipt: Type.Optional(Receipt),
  evidence: Type.Optional(Evidence),
});

const DeviceExplanation = Type.Object({
  device_id: Type.String(),
  project_id: Type.String(),
  partition: Type.Integer({ description: 'The herald.device-events partition its events are on' }),
  status: Type.Enum(['active', 'inactive']),
  token: Type.String(),
  timeline: Type.Array(TimelineEntry, { description: 'Oldest first' }),
  notifications: Type.Array(Type.String(), { description: "The notifications whose events were read for receipts and opens: the device's most recent ones (at most 20)" }),
  live_activities: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The Live Activity push (GET /api/v1/live-activities/{id})' }),
      event: Type.Enum(['start', 'update', 'end']),
      activity_id: NullableString,
      attributes_type: NullableString,
      at: Type.String({ format: 'date-time', description: 'When the push was accepted' }),
      outcome: Type.Enum(['delivered', 'invalid', 'failed']),
      reason: NullableString,
      summary: Type.String({ description: 'The outcome for a person, naming what is missing when Herald knows (no APNs credentials: the command that sets them)' }),
    }),
    { description: "The device's most recent Live Activity pushes (at most 20, newest first), one entry per token of the device each reached, from the pushes' status documents" },
  ),
  scanned_records: Type.Integer({ description: 'Log records read to answer' }),
});

const Clause = Type.Object({ clause: Type.String(), matched: Type.Boolean(), detail: Type.String() });
const DeviceAtSend = Type.Object({
  status: Type.Enum(['active', 'inactive']),
  token: Type.String(),
  topics: Type.Array(Type.String()),
  metadata: Type.Record(Type.String(), Type.String()),
  external_id: NullableString,
  timezone: NullableString,
});

export const REACH_REASONS = ['reached', 'provider_rejected', 'send_failed', 'not_matched', 'inactive', 'unregistered', 'registered_after_send', 'cancelled', 'expired', 'capped', 'deferred', 'not_dispatched_yet', 'audience_unknown', 'awaiting_report'] as const;

const ReachExplanation = Type.Object({
  device_id: Type.String(),
  reached: Type.Boolean(),
  reason: Type.Enum(REACH_REASONS),
  summary: Type.String(),
  audience_position: Type.Union([Type.Object({ partition: Type.Integer(), offset: Type.Integer() }), Type.Null()], {
    description: "The device-events end offset the send's audience was taken at on the device's partition (the fan-out task's wait_for)",
  }),
  device_at_send: Type.Union([DeviceAtSend, Type.Null()], { description: 'The device as its events left it at that position' }),
  clauses: Type.Array(Clause, { description: "Each target clause of the send's audience and whether it named the device" }),
  inactive_since: Type.Union([Time, Type.Null()]),
  evidence: Type.Union([Evidence, Type.Null()]),
  registered_at: Type.Union([LogPlace, Type.Null()]),
  receipts: Type.Array(Receipt),
  opened_at: Type.Union([Time, Type.Null()]),
});

const NotificationFacts = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  requested_at: Time,
  targets: Type.Array(Type.Unknown()),
  cancelled_at: Type.Union([Time, Type.Null()]),
  expired: Type.Union([Type.Object({ at: Time, reason: Type.String() }), Type.Null()]),
  dispatches: Type.Integer({ description: 'Partition dispatches announced (NotificationDispatched)' }),
});

const COST =
  'Read from the event log, bounded: a request reads at most 200,000 log records (422 past it, naming the span) within 15 s (503), ' +
  'one explain at a time per project (429). The CLI (`herald explain`) has no such bound.';

export const explainDeviceSchema = {
  summary: "A device's timeline from the log",
  description:
    'Registrations, token refreshes, metadata changes, deactivations with the provider\'s evidence, unregistrations and unlinks from `herald.device-events`; ' +
    'receipts and opens of its most recent notifications (found in the delivery ledger) from `herald.notification-events`. 404 for a device that is not the project\'s. ' +
    COST,
  tags: ['devices'],
  security: BEARER,
  params: Type.Object({ id: Type.String({ format: 'uuid', description: 'The device id' }) }),
  response: { 200: Type.Object({ data: DeviceExplanation }), ...errorResponses(400, 401, 404, 422, 429, 503) },
} as const;

export const explainNotificationSchema = {
  summary: 'Why a device was or was not reached by a notification',
  description:
    'From the log: the notification\'s events, the fan-out task of the device\'s partition (its recorded audience position `wait_for` and resolved audience) and the ' +
    'device\'s events up to that position, judged by the audience predicate. `reason`: reached, provider_rejected (the token refused), send_failed (retries exhausted or no credentials), not_matched (which clause failed), inactive (since, evidence), ' +
    'unregistered, registered_after_send, cancelled, expired, not_dispatched_yet, audience_unknown (its fan-out records, kept 7 days, are gone), awaiting_report. Without `device_id`, only the notification\'s facts. ' +
    '404 for a notification or device that is not the project\'s. ' +
    COST,
  tags: ['notifications'],
  security: BEARER,
  params: Type.Object({ id: Type.String({ format: 'uuid', description: 'The notification id' }) }),
  querystring: Type.Object({ device_id: Type.Optional(Type.String({ format: 'uuid', description: 'The device to explain' })) }, { additionalProperties: false }),
  response: {
    200: Type.Object({ data: Type.Object({ notification: NotificationFacts, device: Type.Union([ReachExplanation, Type.Null()]), scanned_records: Type.Integer() }) }),
    ...errorResponses(400, 401, 404, 422, 429, 503),
  },
} as const;
