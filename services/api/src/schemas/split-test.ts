import Type from 'typebox';
import { TemplateSendInput } from './templates.ts';

/** One variant of an A/B send: literal content, or a template with its variables. */
export const VariantInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$', description: 'Unique within the send: `A`, `B`, `short-copy`' }),
    title: Type.Optional(Type.String({ maxLength: 4096 })),
    body: Type.Optional(Type.String({ maxLength: 4096 })),
    link_to: Type.Optional(Type.String({ maxLength: 4096 })),
    image: Type.Optional(Type.String({ maxLength: 4096 })),
    data: Type.Optional(Type.Record(Type.String(), Type.String(), { maxProperties: 20 })),
    template: TemplateSendInput.template,
    variables: TemplateSendInput.variables,
  },
  { additionalProperties: false, description: 'Literal (`title` and `body`) or a template (`template`, `variables`), not both' },
);

/** The A/B fields of a send (docs/guides/templates.md, A/B tests). */
export const SplitTestInput = {
  variants: Type.Optional(
    Type.Array(VariantInput, { minItems: 2, maxItems: 5, description: 'An A/B send: each device of the audience gets one variant, by a hash of notification and device ids (instead of `title` and `body` or `template`)' }),
  ),
  holdout_percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, description: 'Share (%) of the audience that gets nothing: reported `held_out`, counted, for analytics' })),
  test: Type.Optional(
    Type.Object(
      {
        percent: Type.Integer({ minimum: 1, maximum: 100, description: 'Share (%) of the audience outside the holdout that takes part; the rest (the remainder) gets the winner at `decide_after`' }),
        decide_after: Type.String({ minLength: 2, maxLength: 32, description: 'ISO 8601 duration of days, hours, minutes, seconds after the send is due (`PT2H`; at most `P7D`)' }),
        metric: Type.Literal('open_rate'),
      },
      { additionalProperties: false, description: 'Without it every device takes part: no remainder, no decision' },
    ),
  ),
  fallback: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The variant the remainder gets when no variant wins significantly (default: the first)' })),
};

const Rate = Type.Union([Type.Number(), Type.Null()]);

/** An A/B send's decision as GET /api/v1/notifications/{id} shows it (VariantDecided). */
export const DecisionView = Type.Object(
  {
    metric: Type.Literal('open_rate'),
    arms: Type.Array(Type.Object({ variant: Type.String(), delivered: Type.Integer(), opened: Type.Integer(), rate: Rate })),
    best: Type.String(),
    runner_up: Type.Optional(Type.String()),
    difference: Type.Optional(Type.Number({ description: "best's open rate minus the runner-up's" })),
    interval: Type.Optional(Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: "The difference's 95 % confidence interval" })),
    z: Type.Optional(Type.Number()),
    p_value: Type.Optional(Type.Number({ description: 'Two-sided, two-proportion z-test' })),
    significant: Type.Boolean(),
    chosen: Type.String({ description: 'The variant sent to the remainder' }),
    reason: Type.Enum(['significant', 'not_significant', 'no_data'], { description: '`significant`: the best won; otherwise the fallback was sent' }),
  },
  { description: 'An A/B send with a test share, once `decide_after` passed' },
);
