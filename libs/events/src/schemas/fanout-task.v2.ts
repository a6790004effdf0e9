import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { CampaignCaps, FanoutMessage, FanoutSlot, PriorityLane, ResolvedAudience } from './fanout-task.v1.ts';
import { AudienceCondition } from './target-expression.ts';
import { Localizations, PinnedTemplate } from './content.ts';
import { FanoutSplit } from './split-test.ts';

/** v1's message plus what per-device content is made from: a pinned template or a literal send's localisations. */
export const FanoutMessageV2 = Type.Object({ ...FanoutMessage.properties, template: Type.Optional(PinnedTemplate), localizations: Type.Optional(Localizations), split: Type.Optional(FanoutSplit) });
export type FanoutMessageV2 = Static<typeof FanoutMessageV2>;

/** v1's counts plus web and Huawei devices' (absent in tasks written before their lanes: 0). */
const PerProvider = Type.Object({ apns: Type.Integer({ minimum: 0 }), fcm: Type.Integer({ minimum: 0 }), webpush: Type.Optional(Type.Integer({ minimum: 0 })), hms: Type.Optional(Type.Integer({ minimum: 0 })) });

/** v1's audience plus its expressions: the union of the plain targets' lists and of these conditions (libs/audience). */
export const ResolvedAudienceV2 = Type.Object({
  ...ResolvedAudience.properties,
  expressions: Type.Optional(Type.Array(AudienceCondition, { description: 'The send\'s target expressions, topic names resolved: a device any of them names is in the audience too' })),
});
export type ResolvedAudienceV2 = Static<typeof ResolvedAudienceV2>;

export const FanoutTaskV2 = eventSchema(
  'FanoutTask',
  2,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    fanout_id: Type.String({ minLength: 1, description: 'The notification id, or `<id>@<slot>` for one slot of a local-time send: names the batch ids' }),
    partition: Type.Integer({ minimum: 0, description: 'The herald.device-events partition this task dispatches for (the record partition, except for a forwarded task, which runs where the device holding a token lives)' }),
    partitions: Type.Integer({ minimum: 1, description: 'How many partition tasks the fan-out has (its dispatch is complete when each has dispatched)' }),
    covers: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0 }), {
        description: 'The partitions this fan-out has tasks on, when not all (an audience that names devices only): a token holder living on one of them is found by that task, elsewhere it is handed on',
      }),
    ),
    step: Type.Integer({ minimum: 0 }),
    requested_at: Type.String({ format: 'date-time', description: 'When the notification was requested or became due (expiry is measured from it)' }),
    wait_for: Type.Integer({ minimum: 0, description: 'The device-events end offset of the partition the task runs on, taken after the notification was accepted: its index answers only once it has applied everything before it' }),
    audience: ResolvedAudienceV2,
    slot: Type.Optional(FanoutSlot),
    message: Type.Optional(FanoutMessageV2),
    message_at: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Later steps: the offset, on this partition of herald.fanout-tasks, of step 0, which carries the message (stored once)' }),
    ),
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'The last ordinal (position of a device in its partition of the audience index, given in log order) an earlier step examined' })),
    sequence: PerProvider,
    targeted: PerProvider,
    pace: Type.Optional(
      Type.Object(
        {
          rate_per_minute: Type.Integer({ minimum: 1, description: "The notification's requested rate (a DeliveryControl record may replace it); this task sends its 1/`partitions` share" }),
          slot_at: Type.Optional(Type.String({ format: 'date-time', description: "The slot the previous step took (token bucket): this step may leave `sent` pushes' time at the current rate after it, whichever instance runs it" })),
          sent: Type.Optional(Type.Integer({ minimum: 0, description: 'Devices the previous step queued' })),
          from_project: Type.Optional(Type.Boolean({ description: "The project's default rate, not the request's: the first step (≤ 1,000 devices) is not paced, so a small send is never slowed" })),
        },
        { description: 'A paced campaign (`rate_per_minute`)' },
      ),
    ),
    lane: Type.Optional(PriorityLane),
    deadline: Type.Optional(Type.String({ format: 'date-time', description: '`requested_at` + `max_duration`: what is not sent by then is reported `expired`' })),
    caps: Type.Optional(CampaignCaps),
    split_phase: Type.Optional(
      Type.Union([Type.Literal('test'), Type.Literal('remainder')], {
        description: "An A/B send with a test share: the test's fan-out (variants and holdout; its dispatch is slot `test` of 2) or the remainder's after the decision (slot `remainder`)",
      }),
    ),
    forwarded: Type.Optional(Type.Boolean({ description: 'Runs on the partition of devices that hold a target token under an id derived from another token (a refresh), for the task of `partition`, which hands on its dispatch' })),
    forwards: Type.Optional(
      Type.Array(Type.Object({ device_id: Type.String({ minLength: 1 }), token: Type.String({ minLength: 1 }) }), {
        description: 'Token holders on further partitions still to visit before the dispatch of `partition` is announced',
      }),
    ),
  }),
  'Work item (v1 with target expressions in `audience`) for the fan-out of one device-events partition: queue the next bounded step of the audience its index holds. Steps of different notifications interleave on the partition, so a long campaign never blocks a short send.',
);
export type FanoutTaskV2 = Static<typeof FanoutTaskV2>;
