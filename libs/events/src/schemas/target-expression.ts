import Type, { type Static } from 'typebox';
import { Platform } from './common.ts';

/*
 * Targets as boolean expressions (docs/guides/targets.md): what a
 * NotificationRequested v2 may carry, and the resolved form a FanoutTask v2
 * carries (topic names turned into ids). The limits on depth, nodes and
 * list sizes are checked where a request comes in (libs/audience
 * `targetProblems`), with the path of the offending node; these schemas
 * only pin the shape, so a record that passed them can always be evaluated.
 */

/** A metadata value test: a string is equality; `in` any of the values; `exists` whether the key is set; `ne` anything but the value (an unset key included). */
export const MetadataCondition = Type.Union([
  Type.String(),
  Type.Object({ in: Type.Array(Type.String(), { minItems: 1 }) }, { additionalProperties: false }),
  Type.Object({ exists: Type.Boolean() }, { additionalProperties: false }),
  Type.Object({ ne: Type.String() }, { additionalProperties: false }),
]);
export type MetadataCondition = Static<typeof MetadataCondition>;

/** The platforms a `{"platform": …}` leaf may name: the device platforms v2 events know. */
export const PLATFORMS: readonly string[] = Platform.anyOf.map((literal) => String(literal.const));

const text = Type.String({ minLength: 1 });
const one = <K extends string, T extends Type.TSchema>(key: K, schema: T, description: string) => Type.Object({ [key]: schema } as { [P in K]: T }, { additionalProperties: false, description });

/** The leaves every form shares: what a device is, not what the send names. */
const describingLeaves = [
  one('metadata', Type.Record(Type.String(), MetadataCondition), 'Devices whose metadata passes every key test'),
  one('external_id', text, "A user's devices"),
  one('device_id', text, 'Exactly the device with this id'),
  one('token', text, 'Exactly the device holding this push token'),
  one('platform', Platform, 'Devices of this platform'),
  one('locale', text, 'Devices whose BCP 47 locale is this one or starts with its subtags (`fr` matches `fr`, `fr-CA`)'),
  one('timezone', text, 'Devices in this IANA time zone'),
] as const;

/**
 * A target as a client sends it: a plain string (by its form: an id, a
 * token or a topic name), a typed leaf, or `and` / `or` / `not` of targets.
 */
export const TargetExpression = Type.Cyclic(
  {
    Target: Type.Union([
      text,
      ...describingLeaves,
      one('topic', text, 'The subscribers of the topic with this name (or id)'),
      one('segment', text, "The saved segment with this id or name: the version the send pinned (NotificationRequested's `segments`)"),
      one('and', Type.Array(Type.Ref('Target'), { minItems: 1 }), 'Devices every target names'),
      one('or', Type.Array(Type.Ref('Target'), { minItems: 1 }), 'Devices any target names'),
      one('not', Type.Ref('Target'), 'Devices the target does not name'),
    ]),
  },
  'Target',
);
export type TargetExpression = Static<typeof TargetExpression>;

/**
 * A target once topic names (and segments) are resolved: what the delivery
 * index and every reader of the devices read model evaluate. `{"or": []}`
 * names nothing (a topic that does not exist).
 */
export const AudienceCondition = Type.Cyclic(
  {
    Condition: Type.Union([
      ...describingLeaves,
      one('topic_id', text, 'The subscribers of the topic with this id'),
      one('and', Type.Array(Type.Ref('Condition')), 'Devices every condition names'),
      one('or', Type.Array(Type.Ref('Condition')), 'Devices any condition names (none: no device)'),
      one('not', Type.Ref('Condition'), 'Devices the condition does not name'),
    ]),
  },
  'Condition',
);
export type AudienceCondition = Static<typeof AudienceCondition>;

/** A saved segment as a send uses it: the version it pinned when it was accepted, so a later edit never changes what the send meant. */
export const PinnedSegment = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  version: Type.Integer({ minimum: 1 }),
  filter: TargetExpression,
});
export type PinnedSegment = Static<typeof PinnedSegment>;
