import Type, { type Static } from 'typebox';
import { StringMap } from './common.ts';
import { PinnedTemplate } from './content.ts';

/**
 * One arm of an A/B send: literal content (`title` and `body`, optionally
 * `link_to`, `image`, `data`) or a pinned template version (copied whole
 * when the send was accepted, with its variables), never both.
 */
export const SplitVariant = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 32, description: 'Unique within the send (`A`, `B`, `short-copy`)' }),
    title: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    link_to: Type.Optional(Type.String()),
    image: Type.Optional(Type.String()),
    data: Type.Optional(StringMap),
    template: Type.Optional(PinnedTemplate),
  },
  { description: 'A variant of an A/B send: literal content or a pinned template' },
);
export type SplitVariant = Static<typeof SplitVariant>;

/** The test share of an A/B send: only `percent` of the non-holdout audience gets a variant; the rest waits for the winner. */
export const SplitTestShare = Type.Object({
  percent: Type.Integer({ minimum: 1, maximum: 100, description: 'Share (%) of the audience outside the holdout that takes part in the test; the others (the remainder) get the winner' }),
  decide_after: Type.String({ minLength: 1, description: 'ISO 8601 duration after the send became due at which the winner is picked (`PT2H`)' }),
  metric: Type.Literal('open_rate'),
});
export type SplitTestShare = Static<typeof SplitTestShare>;

/**
 * What the fan-out of an A/B send needs, on the first step's message: the
 * variants, the holdout and test shares, and in the remainder's fan-out
 * (after the decision) the winner's index.
 */
export const FanoutSplit = Type.Object({
  variants: Type.Array(SplitVariant, { minItems: 2, maxItems: 5 }),
  holdout_percent: Type.Integer({ minimum: 0, maximum: 50 }),
  test_percent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  winner: Type.Optional(Type.Integer({ minimum: 0, description: "The remainder's fan-out (after VariantDecided): every remainder device gets this variant, and only those devices are sent" })),
});
export type FanoutSplit = Static<typeof FanoutSplit>;
