import Type from 'typebox';
import { BEARER, errorResponses } from './common.ts';
import { STREAM_EVENT_TYPES } from '../domain/event-stream.ts';
import { WEBHOOK_LIMITS } from '../domain/webhook-request.ts';

const EventType = Type.Enum([...STREAM_EVENT_TYPES]);

const Batch = Type.Object(
  {
    max_events: Type.Integer({ minimum: 1, maximum: WEBHOOK_LIMITS.maxBatchEvents, description: 'Events per request at most (1: one event per request)' }),
    max_wait_ms: Type.Integer({ minimum: 0, maximum: WEBHOOK_LIMITS.maxBatchWaitMs, description: 'How long the first waiting event may wait for others' }),
  },
  { additionalProperties: false, description: 'Optional batching: a request once max_events are waiting or the oldest has waited max_wait_ms' },
);

/** The log position of a webhook, per topic and partition: the next offset it delivers. */
const Position = Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer({ minimum: 0 })), {
  description: 'Next offset to deliver, per topic, per partition (as GET shows it)',
  maxProperties: 8,
});

export const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    event_types: Type.Array(EventType),
    notification_id: Type.Union([Type.String(), Type.Null()]),
    batch: Type.Object({ max_events: Type.Integer(), max_wait_ms: Type.Integer() }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    secret_rotation: Type.Union([Type.Object({ previous_expires_at: Type.String({ format: 'date-time' }) }), Type.Null()], {
      description: 'While the previous secret still signs (after a rotation): requests carry a signature under each',
    }),
    position: Type.Union([Position, Type.Null()], { description: 'null until the dispatcher first starts the webhook' }),
    replay_pending: Type.Boolean({ description: 'A replay was asked and the dispatcher has not moved to it yet' }),
    paused: Type.Boolean({ description: 'Paused: nothing is posted; the position stays where it stopped and delivery goes on from there when resumed' }),
    status: Type.Object({
      lag: Type.Integer({ description: 'Log records between the position and the end (all projects: what is left to read), at the last measure' }),
      delivered_events: Type.Integer(),
      failed_attempts: Type.Integer(),
      dead_letters: Type.Integer(),
      last_success_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      last_failure: Type.Union([Type.Object({ at: Type.String({ format: 'date-time' }), error: Type.String() }), Type.Null()]),
      updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  },
  { $id: 'Webhook' },
);

const WithSecret = Type.Object({
  data: Webhook,
  secret: Type.String({ description: 'The signing secret: shown here once, never again' }),
});

const WebhookId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The webhook id' }) });

const Url = Type.String({ minLength: 8, maxLength: WEBHOOK_LIMITS.urlLength, description: `https URL naming its host (no IP address; http and a loopback address only in local mode), at most ${WEBHOOK_LIMITS.urlLength} characters` });
const EventTypes = Type.Array(EventType, { minItems: 1, maxItems: STREAM_EVENT_TYPES.length, uniqueItems: true });
const NotificationFilter = Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: "Only this notification's events (device events are not a notification's: they are left out)" });

export const createWebhookSchema = {
  summary: 'Register a webhook',
  description:
    'The endpoint receives the chosen event types of the project, signed (docs/webhooks.md), from now on. ' +
    `The answer holds the signing secret, shown once. A project has at most ${WEBHOOK_LIMITS.defaultPerProject} webhooks by default (WEBHOOKS_PER_PROJECT).`,
  tags: ['webhooks'],
  security: BEARER,
  body: Type.Object(
    { url: Url, event_types: Type.Optional(EventTypes), notification_id: Type.Optional(NotificationFilter), batch: Type.Optional(Batch) },
    { additionalProperties: false },
  ),
  response: { 201: WithSecret, ...errorResponses(400, 401, 409, 413, 415) },
} as const;

export const listWebhooksSchema = {
  summary: "The project's webhooks, with lag and failures",
  tags: ['webhooks'],
  security: BEARER,
  response: { 200: Type.Object({ data: Type.Array(Webhook) }), ...errorResponses(401) },
} as const;

export const getWebhookSchema = {
  summary: 'A webhook of the current project',
  description: "404 for an id that is not one of the project's webhooks.",
  tags: ['webhooks'],
  security: BEARER,
  params: WebhookId,
  response: { 200: Type.Object({ data: Webhook }), ...errorResponses(400, 401, 404) },
} as const;

export const updateWebhookSchema = {
  summary: 'Change, pause, resume a webhook, or rotate its secret',
  description:
    'Fields given replace the stored ones. `paused: true` pauses it, `paused: false` resumes it where it stopped. `rotate_secret: true` makes a new secret (in the answer, once); the previous one keeps signing ' +
    'beside it for `previous_secret_ttl_s` (default 86400), so receivers can switch without missing a request.',
  tags: ['webhooks'],
  security: BEARER,
  params: WebhookId,
  body: Type.Object(
    {
      url: Type.Optional(Url),
      event_types: Type.Optional(EventTypes),
      notification_id: Type.Optional(NotificationFilter),
      batch: Type.Optional(Batch),
      rotate_secret: Type.Optional(Type.Boolean()),
      previous_secret_ttl_s: Type.Optional(Type.Integer({ minimum: 0, maximum: WEBHOOK_LIMITS.maxRotationOverlapS })),
      paused: Type.Optional(Type.Boolean({ description: 'true pauses the webhook (within seconds: nothing more is posted, its position is kept); false resumes it from that position, so it receives what it missed' })),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  response: {
    200: Type.Object({ data: Webhook, secret: Type.Optional(Type.String({ description: 'The new secret, after rotate_secret: shown once' })) }),
    ...errorResponses(400, 401, 404, 413, 415),
  },
} as const;

export const deleteWebhookSchema = {
  summary: 'Delete a webhook',
  description: 'Deliveries stop within seconds (a request in flight may still arrive).',
  tags: ['webhooks'],
  security: BEARER,
  params: WebhookId,
  response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 404) },
} as const;

export const replayWebhookSchema = {
  summary: 'Deliver again from a time or an earlier position',
  description:
    'The webhook goes back to `from` (the first records written at or after that time) or to `position` (one it showed earlier in GET: ' +
    'not past its current position) and delivers everything of its event types from there again, with the same event ids: receivers that ' +
    'dedupe by event id see each event once. Takes effect within seconds (`replay_pending` until then).',
  tags: ['webhooks'],
  security: BEARER,
  params: WebhookId,
  body: Type.Object(
    { from: Type.Optional(Type.String({ format: 'date-time', description: 'A time (RFC 3339)' })), position: Type.Optional(Position) },
    { additionalProperties: false, minProperties: 1, maxProperties: 1 },
  ),
  response: { 202: Type.Object({ data: Webhook }), ...errorResponses(400, 401, 404, 409, 413, 415) },
} as const;
