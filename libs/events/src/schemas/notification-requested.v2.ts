import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { PinnedSegment, TargetExpression } from './target-expression.ts';
import { PushOptionFields } from './push-options.ts';
import { PriorityLane } from './fanout-task.v1.ts';
import { Localizations, PinnedTemplate } from './content.ts';
import { SplitTestShare, SplitVariant } from './split-test.ts';

export const NotificationRequestedV2 = eventSchema(
  'NotificationRequested',
  2,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    title: Type.String(),
    body: Type.String(),
    targets: Type.Array(TargetExpression, { minItems: 1, description: 'OR\'d: plain targets (v1) or expressions of `and`, `or`, `not` and leaves (docs/guides/targets.md)' }),
    segments: Type.Optional(Type.Array(PinnedSegment, { description: 'The saved segments the targets name (and those they name), each at the version the send pinned when it was accepted' })),
    link_to: Type.Optional(Type.String()),
    group: Type.Optional(Type.String()),
    ...PushOptionFields,
    send_at: Type.Optional(Type.String({ format: 'date-time', description: 'Held until this instant (RFC 3339)' })),
    send_at_local: Type.Optional(
      Type.String({ description: 'Wall-clock time ("2026-12-01T09:00") at which each device gets it in its own time zone' }),
    ),
    rate_per_minute: Type.Optional(Type.Integer({ minimum: 1, description: 'Pushes per minute across every delivery instance together (paced campaign); absent: as fast as Herald goes' })),
    max_duration: Type.Optional(Type.Integer({ minimum: 1, description: 'Seconds after the send (or its slot) became due; devices not sent by then are reported `expired`' })),
    priority_lane: Type.Optional(PriorityLane),
    template: Type.Optional(PinnedTemplate),
    localizations: Type.Optional(Localizations),
    variants: Type.Optional(Type.Array(SplitVariant, { minItems: 2, maxItems: 5, description: 'An A/B send: each device of the audience gets one variant (by a hash of notification and device ids), or is in the holdout or the remainder' })),
    holdout_percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, description: 'An A/B send: share (%) of the audience that gets nothing (reported `held_out`)' })),
    test: Type.Optional(SplitTestShare),
    fallback: Type.Optional(Type.String({ minLength: 1, description: 'An A/B send with a test share: the variant the remainder gets when no variant wins significantly (absent: the first)' })),
    replaces: Type.Optional(Type.String({ format: 'uuid', description: 'An edit of a scheduled send: the notification this one replaces, cancelled by a NotificationCancelled published with this event' })),
    test_send: Type.Optional(Type.Literal(true, { description: "A test send: a draft delivered to a few chosen devices before the campaign; left out of the notification list and its counts unless asked for (include_tests)" })),
  }),
  'A client asked for a notification to be sent to its targets, now or at `send_at` / `send_at_local`. Fields added later are optional.',
);
export type NotificationRequestedV2 = Static<typeof NotificationRequestedV2>;
