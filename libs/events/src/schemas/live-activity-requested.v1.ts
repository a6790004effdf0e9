import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

const Json = Type.Record(Type.String(), Type.Unknown());

export const LiveActivityRequestedV1 = eventSchema(
  'LiveActivityRequested',
  1,
  Type.Object({
    request_id: Type.String({ minLength: 1, description: 'The id the API answered (GET /api/v1/live-activities/{id}); the stream id' }),
    event: Type.Union([Type.Literal('start'), Type.Literal('update'), Type.Literal('end')]),
    activity_id: Type.Optional(Type.String({ minLength: 1, description: 'update and end: the activity whose update tokens receive the push' })),
    targets: Type.Optional(
      Type.Array(Type.Union([Type.Object({ device_id: Type.String() }), Type.Object({ external_id: Type.String() })]), {
        description: "start: the devices (or users' devices) whose push-to-start token for `attributes_type` receives the push",
      }),
    ),
    attributes_type: Type.Optional(Type.String()),
    attributes: Type.Optional(Json),
    content_state: Type.Optional(Json),
    alert: Type.Optional(Type.Object({ title: Type.String(), body: Type.String(), sound: Type.Optional(Type.String()) })),
    stale_date: Type.Optional(Type.Integer({ description: 'UNIX seconds' })),
    dismissal_date: Type.Optional(Type.Integer({ description: 'end: UNIX seconds' })),
    relevance_score: Type.Optional(Type.Number()),
    priority: Type.Union([Type.Literal(5), Type.Literal(10)]),
    timestamp: Type.Integer({ description: "aps.timestamp, fixed when the API accepted the request (LiveActivityClock): every retry and replay sends this value" }),
  }),
  'A client asked for a Live Activity push (start, update or end). The delivery apns role resolves the tokens when it sends, and reports with LiveActivityReported.',
);
export type LiveActivityRequestedV1 = Static<typeof LiveActivityRequestedV1>;
