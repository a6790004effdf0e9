import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const LiveActivityReportedV1 = eventSchema(
  'LiveActivityReported',
  1,
  Type.Object({
    request_id: Type.String({ minLength: 1, description: 'The LiveActivityRequested it reports on; the stream id' }),
    outcomes: Type.Array(
      Type.Object({
        device_id: Type.String(),
        token_id: Type.String({ description: 'The Live Activity token (its slot id on the device)' }),
        outcome: Type.Union([Type.Literal('delivered'), Type.Literal('invalid'), Type.Literal('failed')], {
          description: '`invalid`: APNs no longer takes the token, which Herald removed; `failed`: refused or still failing after retries',
        }),
        reason: Type.Optional(Type.String({ description: "APNs' reason when not delivered" })),
      }),
    ),
  }),
  'What a LiveActivityRequested came to: one outcome per token it was sent to (none when no token matched).',
);
export type LiveActivityReportedV1 = Static<typeof LiveActivityReportedV1>;
