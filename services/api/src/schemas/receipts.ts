import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination } from './common.ts';

/** A device's outcome for a notification, as the ledger and every receipt list it. */
export const RECEIPT_OUTCOMES = ['delivered', 'failed', 'invalid', 'cancelled', 'expired', 'capped', 'deferred', 'held_out'] as const;
const OUTCOMES = RECEIPT_OUTCOMES;
const NullableTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const Receipt = Type.Object(
  {
    notification_id: Type.String(),
    device_id: Type.String(),
    provider: Type.Enum(['apns', 'fcm', 'webpush', 'hms']),
    outcome: Type.Enum(OUTCOMES, {
      description: '`delivered`: accepted by the provider; `failed`: not accepted after retries; `invalid`: token rejected (device deactivated); `cancelled`: not sent (cancelled); `expired`: not sent (`max_duration` ran out; reason `MaxDurationExceeded`); `capped`: not sent (a frequency cap with `on_cap: drop`; reason `FrequencyCap`, see `rule`); `deferred`: held by a frequency cap (`on_cap: defer`) or quiet hours until `until`, then replaced by its real outcome; `held_out`: not sent (in an A/B send\'s holdout)',
    }),
    reason: Type.Union([Type.String(), Type.Null()], { description: "The provider's reason code (or Herald's: AttemptsExhausted, NoApnsCredentials, …) when not delivered" }),
    attempts: Type.Union([Type.Integer(), Type.Null()], { description: 'Sends tried for this device' }),
    rule: Type.Optional(Type.String({ description: 'capped / deferred (and expired after a deferral): the rule that applied, e.g. `cap 3/86400s per user` or `quiet 22:00-08:00 Europe/Paris`' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'deferred: when it goes out' })),
    variant: Type.Optional(Type.String({ description: 'An A/B send: the variant the device got (none for `held_out`)' })),
    locale: Type.Optional(Type.String({ description: 'A template or localised send: the content locale the device got' })),
    delivered_at: NullableTime,
    opened_at: NullableTime,
    reported_at: Type.String({ format: 'date-time', description: 'When the outcome was recorded' }),
  },
  { $id: 'Receipt' },
);

const ReceiptsQuery = Type.Object({ ...PageQuery, outcome: Type.Optional(Type.Enum(OUTCOMES)) }, { additionalProperties: false });
const ReceiptsPage = Type.Object({ data: Type.Array(Receipt), pagination: Pagination });

export const notificationReceiptsSchema = {
  summary: "A notification's per-device receipts",
  description:
    'One row per device with an outcome, batch by batch (APNs, then FCM, in send order). Devices targeted but not yet reported are not listed: ' +
    '`counts.targeted` minus the rows here is what is still outstanding. Served from the delivery ledger (one document per batch).',
  tags: ['notifications'],
  security: BEARER,
  params: Type.Object({ id: Type.String({ format: 'uuid', description: 'The notification id' }) }),
  querystring: ReceiptsQuery,
  response: { 200: ReceiptsPage, ...errorResponses(400, 401, 404) },
} as const;

export const deviceReceiptsSchema = {
  summary: "A device's receipts, newest first",
  description: 'One row per notification the device was targeted by and has an outcome for.',
  tags: ['devices'],
  security: BEARER,
  params: Type.Object({ id: Type.String({ format: 'uuid', description: 'The device id' }) }),
  querystring: ReceiptsQuery,
  response: { 200: ReceiptsPage, ...errorResponses(400, 401, 404) },
} as const;
