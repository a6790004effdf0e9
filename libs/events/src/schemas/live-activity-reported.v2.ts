import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { LiveActivityReportedV1 } from './live-activity-reported.v1.ts';

const v1 = LiveActivityReportedV1.properties.data.properties;

/** v1 with `coalesced_into`: an update superseded within the per-activity rate is not sent; the newer request carries its activity's latest state. */
export const LiveActivityReportedV2 = eventSchema(
  'LiveActivityReported',
  2,
  Type.Object({
    ...v1,
    coalesced_into: Type.Optional(
      Type.String({ minLength: 1, description: 'Set when this update was coalesced (not sent): the newer update request of the same activity, accepted within the rate interval, that carries the later content_state; `outcomes` is then empty' }),
    ),
    coalesced_tokens: Type.Optional(Type.Integer({ minimum: 0, description: 'With `coalesced_into`: the update tokens this request would have reached (its `coalesced` count)' })),
  }),
  'What a LiveActivityRequested came to: one outcome per token it was sent to (none when no token matched), or, for an update coalesced into a newer one, `coalesced_into`.',
);
export type LiveActivityReportedV2 = Static<typeof LiveActivityReportedV2>;
