import Type from 'typebox';
import { BEARER, errorResponses } from './common.ts';
import { ActivityId, AttributesType } from './live-activity-tokens.ts';
import { TargetSchema } from './notifications.ts';
import { LIVE_ACTIVITY_MAX_TARGETS, LIVE_ACTIVITY_PAYLOAD_BYTES } from '../domain/live-activity-send.ts';

const UnixSeconds = (description: string) => Type.Integer({ minimum: 0, maximum: 253402300799, description });
const Json = (description: string) => Type.Record(Type.String(), Type.Unknown(), { maxProperties: 256, description });

export const SendLiveActivityBody = Type.Object(
  {
    event: Type.Union([Type.Literal('start'), Type.Literal('update'), Type.Literal('end')], {
      description: '`start` a new activity on the targets (their push-to-start tokens); `update` or `end` the activity `activity_id` (its update tokens)',
    }),
    activity_id: Type.Optional({ ...ActivityId, description: 'update and end: the activity (`Activity.id`) whose update tokens receive the push' }),
    targets: Type.Optional(
      Type.Array(TargetSchema, {
        minItems: 1,
        maxItems: LIVE_ACTIVITY_MAX_TARGETS,
        description:
          "start only: OR'd targets as for notifications (docs/guides/targets.md): devices, users (`{\"external_id\"}`), topics, metadata and expressions; saved segments are refused. The push-to-start tokens for `attributes_type` of the active iOS devices they name receive the push (at most 2,000 tokens)",
      }),
    ),
    attributes_type: Type.Optional(AttributesType),
    attributes: Type.Optional(Json("start: the `ActivityAttributes`' static values")),
    content_state: Type.Optional(Json("The activity's `ContentState` (required for start and update)")),
    alert: Type.Optional(
      Type.Object(
        { title: Type.String({ minLength: 1, maxLength: 256 }), body: Type.String({ minLength: 1, maxLength: 1024 }), sound: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) },
        { additionalProperties: false, description: 'Shown with the push (required for start)' },
      ),
    ),
    stale_date: Type.Optional(UnixSeconds('UNIX seconds after which the system marks the content stale')),
    dismissal_date: Type.Optional(UnixSeconds('end only: UNIX seconds when the ended activity leaves the Lock Screen (without it, iOS decides, up to four hours)')),
    relevance_score: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Which activity the Dynamic Island features' })),
    priority: Type.Optional(Type.Union([Type.Literal(5), Type.Literal(10)], { description: '10 (default): now, within Apple\'s budget; 5: when power allows' })),
  },
  { additionalProperties: false },
);

const Outcome = Type.Object({
  device_id: Type.String(),
  token_id: Type.String(),
  outcome: Type.Union([Type.Literal('delivered'), Type.Literal('invalid'), Type.Literal('failed')]),
  reason: Type.Optional(Type.String()),
});

export const LiveActivitySend = Type.Object({
  id: Type.String({ format: 'uuid' }),
  event: Type.Union([Type.Literal('start'), Type.Literal('update'), Type.Literal('end')]),
  activity_id: Type.Union([Type.String(), Type.Null()]),
  attributes_type: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.Integer({ description: 'The `aps.timestamp` every attempt of this push carries' }),
  status: Type.Union([Type.Literal('accepted'), Type.Literal('sent'), Type.Literal('coalesced')], {
    description: '`accepted`: not yet sent; `sent`: `outcomes` holds one entry per token (none when no token matched); `coalesced`: an update superseded within the per-activity rate by `coalesced_into`, never sent',
  }),
  outcomes: Type.Array(Outcome),
  counts: Type.Object(
    {
      delivered: Type.Integer(),
      invalid: Type.Integer(),
      failed: Type.Integer(),
      coalesced: Type.Integer({ description: 'Tokens a coalesced update would have reached' }),
    },
    { description: 'Tokens by outcome' },
  ),
  coalesced_into: Type.Union([Type.String(), Type.Null()], { description: 'coalesced: the newer update (its id) that carried the later content_state' }),
  created_at: Type.String({ format: 'date-time' }),
  reported_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const sendLiveActivitySchema = {
  summary: 'Start, update or end a Live Activity',
  description:
    'Accepts a Live Activity push and answers its id; the delivery apns role resolves the tokens when it sends. ' +
    `400 for a body of the wrong shape, 422 naming the field for a combination the event does not allow or an APNs payload over ${LIVE_ACTIVITY_PAYLOAD_BYTES} bytes.`,
  tags: ['live-activities'],
  security: BEARER,
  body: SendLiveActivityBody,
  response: { 201: Type.Object({ data: LiveActivitySend }), ...errorResponses(400, 401, 415, 422) },
} as const;

export const getLiveActivitySchema = {
  summary: 'A Live Activity push and its per-token outcomes',
  description: "404 when it is not the project's.",
  tags: ['live-activities'],
  security: BEARER,
  params: Type.Object({ id: Type.String({ format: 'uuid', description: 'The id the send answered' }) }),
  response: { 200: Type.Object({ data: LiveActivitySend }), ...errorResponses(400, 401, 404) },
} as const;
