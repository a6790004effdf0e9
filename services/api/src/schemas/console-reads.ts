import Type from 'typebox';
import { BEARER, errorResponses } from './common.ts';
import { NotificationRequest } from './notifications.ts';

/** Routes added for the console (services/console), usable by any API client. */

export const PlatformCounts = Type.Object({ ios: Type.Integer(), android: Type.Integer(), web: Type.Integer({ description: 'Browsers (Web Push)' }), huawei: Type.Integer({ description: 'Android devices with Huawei Mobile Services (Push Kit)' }) });

export const dryRunSchema = {
  summary: 'How many devices a send would reach, without sending',
  description:
    'Takes the same body as `POST /api/v1/notifications` and checks it the same way (422 lists every problem), then counts the active devices ' +
    'its targets resolve to now, by platform, with the same audience predicate as the fan-out. Nothing is published or stored. ' +
    'The count is a moment\'s: devices registering or leaving before the send change it.',
  tags: ['notifications'],
  security: BEARER,
  body: Type.Object({ notification: NotificationRequest }, { additionalProperties: false }),
  response: {
    200: Type.Object({ data: Type.Object({ total: Type.Integer(), by_platform: PlatformCounts }) }),
    ...errorResponses(400, 401, 413, 415, 422, 503),
  },
} as const;

const OutcomeCounts = {
  delivered: Type.Integer(),
  failed: Type.Integer(),
  invalid: Type.Integer(),
  cancelled: Type.Integer(),
  opened: Type.Integer({ description: 'Opens recorded in the period' }),
};
const StatusCounts = Type.Object({ active: Type.Integer(), inactive: Type.Integer() });

export const overviewSchema = {
  summary: "The project at a glance: devices by platform and status, delivery outcomes and opens of the last 24 hours",
  description:
    'Outcomes are counted per UTC hour by the projector (counters of the read model `notification_reports`, each batch once): `outcomes_24h` adds up the current hour and the 23 before it; ' +
    '`hours` lists those hours that have any.',
  tags: ['overview'],
  security: BEARER,
  response: {
    200: Type.Object({
      data: Type.Object({
        devices: Type.Object({ ios: StatusCounts, android: StatusCounts, web: StatusCounts, huawei: StatusCounts }),
        outcomes_24h: Type.Object(OutcomeCounts),
        since: Type.String({ format: 'date-time', description: 'Start of the oldest hour counted' }),
        hours: Type.Array(Type.Object({ hour: Type.String({ format: 'date-time' }), ...OutcomeCounts })),
      }),
    }),
    ...errorResponses(401),
  },
} as const;

const NotificationId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The notification id' }) });

export const notificationReportSchema = {
  summary: "A notification's failures by reason and its outcomes and opens over time",
  description:
    'Read model `notification_reports`, folded from the same events as the counts. `failures`: devices not delivered, grouped by provider, outcome ' +
    "and the provider's reason (or Herald's), most frequent first. `timeline`: outcomes reported and opens recorded per bucket, oldest first; " +
    'buckets are minutes for two hours after the first outcome, hours for a week, then days.',
  tags: ['notifications'],
  security: BEARER,
  params: NotificationId,
  response: {
    200: Type.Object({
      data: Type.Object({
        failures: Type.Array(
          Type.Object({ provider: Type.Enum(['apns', 'fcm', 'webpush', 'hms']), outcome: Type.Enum(['failed', 'invalid']), reason: Type.String({ description: "'' when none was given" }), count: Type.Integer() }),
        ),
        timeline: Type.Array(Type.Object({ at: Type.String({ format: 'date-time' }), span: Type.Enum(['minute', 'hour', 'day']), ...OutcomeCounts })),
      }),
    }),
    ...errorResponses(400, 401, 404),
  },
} as const;

export const RECEIPT_CSV_COLUMNS = ['device_id', 'provider', 'outcome', 'reason', 'attempts', 'delivered_at', 'opened_at', 'reported_at'] as const;

export const receiptsCsvSchema = {
  summary: "Every receipt of a notification as CSV (streamed)",
  description:
    `Every row of \`GET /api/v1/notifications/{id}/receipts\`, in the same order, as \`text/csv\` with a header line (${RECEIPT_CSV_COLUMNS.join(', ')}). ` +
    'Written batch by batch as the delivery ledger is read, so its size is not bounded by memory.',
  tags: ['notifications'],
  security: BEARER,
  params: NotificationId,
  response: {
    200: { description: 'CSV, one line per receipt', content: { 'text/csv': { schema: { type: 'string' } } } },
    ...errorResponses(400, 401, 404),
  },
} as const;
