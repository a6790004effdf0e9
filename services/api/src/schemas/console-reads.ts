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

/** The Overview's window: the last day by default, up to 30 days (the console offers 24 hours, 7 and 30 days). */
export const OVERVIEW_DEFAULT_HOURS = 24;
export const OVERVIEW_MAX_HOURS = 720;

export const overviewSchema = {
  summary: 'The project at a glance: devices by platform and status, delivery outcomes and opens of the last 24 hours (or of a longer window)',
  description:
    'Outcomes are counted per UTC hour by the projector (counters of the read model `notification_reports`, each batch once): `outcomes` adds up the current hour and the ' +
    '`window_hours - 1` before it, `outcomes_24h` the current hour and the 23 before it; `hours` lists the window\'s hours that have any. ' +
    'Test sends (`test_send`) are left out unless `include_tests=true`, as in the notification list.',
  tags: ['overview'],
  security: BEARER,
  querystring: Type.Object(
    {
      hours: Type.Optional(
        Type.Integer({ minimum: 1, maximum: OVERVIEW_MAX_HOURS, default: OVERVIEW_DEFAULT_HOURS, description: `The window in hours, up to ${OVERVIEW_MAX_HOURS} (30 days): 24 (default), 168 (7 days), 720 (30 days) or any between` }),
      ),
      include_tests: Type.Optional(Type.Boolean({ description: "Count test sends' outcomes too; default false" })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      data: Type.Object({
        devices: Type.Object({ ios: StatusCounts, android: StatusCounts, web: StatusCounts, huawei: StatusCounts }),
        window_hours: Type.Integer({ description: 'The window counted (the `hours` asked for)' }),
        outcomes: Type.Object(OutcomeCounts, { description: 'Outcomes and opens over the window' }),
        outcomes_24h: Type.Object(OutcomeCounts, { description: 'Outcomes and opens over the last 24 hours, whatever the window' }),
        since: Type.String({ format: 'date-time', description: 'Start of the oldest hour of the window' }),
        hours: Type.Array(Type.Object({ hour: Type.String({ format: 'date-time' }), ...OutcomeCounts })),
      }),
    }),
    ...errorResponses(400, 401),
  },
} as const;

const NotificationId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The notification id' }) });

const OpenRate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'opened / delivered; null when nothing was delivered' });
const Funnel = {
  targeted: Type.Integer({ description: 'Devices counted here: each reported device once' }),
  delivered: Type.Integer(),
  failed: Type.Integer({ description: 'Not delivered: failed or invalid' }),
  opened: Type.Integer({ description: 'Opens recorded (NotificationOpened)' }),
  open_rate: OpenRate,
};

export const ReportVariant = Type.Object({
  variant: Type.String({ description: 'A variant\'s name, `remainder` (the chosen variant, sent after the decision) or `holdout`' }),
  kind: Type.Enum(['variant', 'remainder', 'holdout']),
  ...Funnel,
  held_out: Type.Integer({ description: 'The holdout: devices recorded `held_out` (sent nothing; their opens of the app are not known to Herald)' }),
});

export const ReportDecision = Type.Object(
  {
    winner: Type.String({ description: 'The variant chosen for the remainder: the best when `significant`, else the send\'s fallback' }),
    best: Type.String({ description: 'The variant with the best open rate at the decision' }),
    significant: Type.Boolean({ description: 'p < 0.05 (two-proportion z-test of the best against the runner-up)' }),
    reason: Type.Enum(['significant', 'not_significant', 'no_data']),
    p_value: Type.Union([Type.Number(), Type.Null()]),
    decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The VariantDecided event\'s time (null on a report projected before it was kept)' }),
  },
  { description: 'An A/B send with a test share, once decided (VariantDecided)' },
);

export const ReportLocale = Type.Object({ locale: Type.String({ description: 'The content locale devices got (`default`: none of their own matched)' }), ...Funnel });

export const notificationReportSchema = {
  summary: "A notification's failures by reason and its outcomes and opens over time",
  description:
    'Read model `notification_reports`, folded from the same events as the counts. `failures`: devices not delivered, grouped by provider, outcome ' +
    "and the provider's reason (or Herald's), most frequent first. `timeline`: outcomes reported and opens recorded per bucket, oldest first; " +
    'buckets are minutes for two hours after the first outcome, hours for a week, then days. ' +
    'An A/B send adds `variants` (each variant\'s funnel, the remainder\'s and the holdout\'s, from the notification\'s counts by variant) and `decision`; ' +
    'a template or localised send adds `locales` (the funnel per content locale).',
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
        variants: Type.Optional(Type.Array(ReportVariant, { description: 'An A/B send: each variant (by name), then the remainder and the holdout' })),
        decision: Type.Optional(Type.Union([ReportDecision, Type.Null()], { description: 'An A/B send with a test share: null until decided' })),
        locales: Type.Optional(Type.Array(ReportLocale, { description: 'A template or localised send: each content locale, most targeted first' })),
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
