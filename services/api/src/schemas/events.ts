import Type from 'typebox';
import { BEARER, errorResponses } from './common.ts';
import { STREAM_EVENT_TYPES } from '../domain/event-stream.ts';

export const eventStreamSchema = {
  summary: "The project's events as they happen (Server-Sent Events)",
  description:
    `Delivery outcomes, opens, deactivations and notification status changes (${STREAM_EVENT_TYPES.join(', ')}), read from the Kafka log. ` +
    'Each message has an `id`; reconnect with `Last-Event-ID: <id>` to resume exactly after it (nothing missed, nothing twice). ' +
    'Without it the stream starts at the end of the log (now). `event:` is the event type; `data:` the event (id, type, version, occurred_at, project_id, data). ' +
    'A comment line every 15 s keeps proxies from closing it; the server ends a stream after EVENT_STREAM_MAX_MS (reconnect with the last id). ' +
    '429 beyond the open-stream limits. See docs/event-stream.md for what one stream costs.',
  tags: ['events'],
  security: BEARER,
  headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 4096 })) }),
  querystring: Type.Object(
    { types: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: `Comma-separated event types to keep (default all): ${STREAM_EVENT_TYPES.join(', ')}` })) },
    { additionalProperties: false },
  ),
  response: {
    200: { description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    ...errorResponses(400, 401, 429, 503),
  },
} as const;
