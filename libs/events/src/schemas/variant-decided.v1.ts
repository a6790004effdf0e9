import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

const Rate = Type.Number({ minimum: 0, maximum: 1 });

export const VariantDecidedV1 = eventSchema(
  'VariantDecided',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    metric: Type.Literal('open_rate'),
    arms: Type.Array(
      Type.Object({
        variant: Type.String({ minLength: 1 }),
        delivered: Type.Integer({ minimum: 0 }),
        opened: Type.Integer({ minimum: 0, description: 'Delivered devices of this variant with a NotificationOpened by the decision' }),
        rate: Type.Union([Rate, Type.Null()], { description: 'opened / delivered; null when nothing was delivered' }),
      }),
    ),
    best: Type.String({ minLength: 1, description: 'The variant with the best rate (the first on a tie)' }),
    runner_up: Type.Optional(Type.String({ minLength: 1, description: 'The variant `best` was tested against' })),
    difference: Type.Optional(Type.Number({ description: "best's rate minus runner_up's" })),
    interval: Type.Optional(Type.Tuple([Type.Number(), Type.Number()], { description: "The difference's 95 % confidence interval (unpooled standard error)" })),
    z: Type.Optional(Type.Number()),
    p_value: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Two-sided, of the two-proportion z-test (pooled)' })),
    significant: Type.Boolean({ description: 'p < 0.05' }),
    chosen: Type.String({ minLength: 1, description: 'The variant sent to the remainder' }),
    reason: Type.Union([Type.Literal('significant'), Type.Literal('not_significant'), Type.Literal('no_data')], {
      description: '`significant`: the best won; otherwise `chosen` is the send\'s `fallback` (A unless named): not significant, or no test possible (an arm with nothing delivered, or no variance)',
    }),
    remainder_fanout_id: Type.String({ minLength: 1, description: "The remainder's fan-out (`<id>#remainder`): names its batch ids, so it is sent once" }),
  }),
  'An A/B send reached its `decide_after`: each variant\'s open rate, the two-proportion test of the best against the runner-up, and the variant chosen for the remainder (sent next).',
);
export type VariantDecidedV1 = Static<typeof VariantDecidedV1>;
