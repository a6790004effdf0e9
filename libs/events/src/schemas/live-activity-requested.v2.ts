import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { LiveActivityRequestedV1 } from './live-activity-requested.v1.ts';
import { TargetExpression } from './target-expression.ts';

const v1 = LiveActivityRequestedV1.properties.data.properties;

/**
 * v1 with the wider `targets`: a start names devices as a notification does
 * (topics, users, metadata, expressions), not only device and external ids.
 * v1's two target forms are typed leaves of TargetExpression, so a v1 record
 * is valid v2 data as it stands (upcast by renumbering).
 */
export const LiveActivityRequestedV2 = eventSchema(
  'LiveActivityRequested',
  2,
  Type.Object({
    ...v1,
    targets: Type.Optional(
      Type.Array(TargetExpression, {
        description: "start: OR'd targets as for notifications (docs/guides/targets.md, saved segments excepted), resolved when sent to the active iOS devices' push-to-start tokens for `attributes_type`",
      }),
    ),
  }),
  'A client asked for a Live Activity push (start, update or end). The delivery apns role resolves the tokens when it sends, and reports with LiveActivityReported.',
);
export type LiveActivityRequestedV2 = Static<typeof LiveActivityRequestedV2>;
