import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { StringMap } from './common.ts';
import { PushOptionFields } from './push-options.ts';

const PerProvider = Type.Object({ apns: Type.Integer({ minimum: 0 }), fcm: Type.Integer({ minimum: 0 }) });

/** The targets once topic names are resolved: what one partition's index evaluates. */
export const ResolvedAudience = Type.Object({
  topic_ids: Type.Array(Type.String()),
  device_ids: Type.Array(Type.String()),
  tokens: Type.Array(Type.String()),
  external_ids: Type.Array(Type.String()),
  metadata: Type.Array(StringMap),
  /** Devices reached through a token another device id holds (a forwarded task): each must still hold that token. */
  held_tokens: Type.Optional(StringMap),
});
export type ResolvedAudience = Static<typeof ResolvedAudience>;

export const FanoutSlot = Type.Object({
  index: Type.Integer({ minimum: 0, description: 'Which dispatch of a local-time send this is (in due order)' }),
  count: Type.Integer({ minimum: 1, description: 'How many dispatches the send has' }),
  at: Type.String({ format: 'date-time', description: 'The instant this slot is due' }),
  zones: Type.Array(Type.String(), { description: 'Device time zones whose wall clock reads the requested time at `at`' }),
  include_unset: Type.Boolean({ description: "Whether devices without a time zone (the project's default zone) belong to this slot" }),
});
export type FanoutSlot = Static<typeof FanoutSlot>;

/** What every batch of the notification carries. */
export const FanoutMessage = Type.Object({
  title: Type.String(),
  body: Type.String(),
  link_to: Type.Optional(Type.String()),
  group: Type.Optional(Type.String()),
  ...PushOptionFields,
});
export type FanoutMessage = Static<typeof FanoutMessage>;

/** A send's priority lane: `transactional` goes on the express lane, never paced, held by the budget only past its first steps, and bypasses frequency caps and quiet hours; `campaign` keeps all of them. */
export const PriorityLane = Type.Union([Type.Literal('transactional'), Type.Literal('campaign')], {
  description:
    "`transactional`: the express lane, never paced or held by the project's budget (past its first two steps it waits for the budget), bypasses frequency caps and quiet hours; `campaign`: paced, held by the budget, capped and kept quiet from its first push. Absent: a partition task whose audience fits its first step (1,000 devices) is transactional, the rest campaign",
});
export type PriorityLane = Static<typeof PriorityLane>;

/** The project's frequency cap and quiet hours, as they were when the send was taken (delivery reads no settings store per step). */
export const CampaignCaps = Type.Object(
  {
    frequency_cap: Type.Optional(
      Type.Object({
        max: Type.Integer({ minimum: 1, description: 'Pushes at most per window' }),
        window_seconds: Type.Integer({ minimum: 1, description: 'The sliding window' }),
        per: Type.Union([Type.Literal('device'), Type.Literal('user')], { description: 'device: counted per device; user: per `external_id` across its devices (one notification counts once per user; devices without one count per device)' }),
        on_cap: Type.Union([Type.Literal('drop'), Type.Literal('defer')], { description: 'drop: reported `capped`; defer: reported `deferred`, sent when the window allows (bounded by `max_duration`)' }),
      }),
    ),
    quiet_hours: Type.Optional(
      Type.Object({
        start: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
        end: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
        timezone: Type.Optional(Type.String({ description: "The zone of devices that registered none (the project's default zone); absent: UTC" })),
      }),
    ),
  },
  { description: "The project's frequency cap and quiet hours when the send was taken (`herald projects caps` / `quiet-hours`): campaign sends only" },
);
export type CampaignCaps = Static<typeof CampaignCaps>;

export const FanoutTaskV1 = eventSchema(
  'FanoutTask',
  1,
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
    audience: ResolvedAudience,
    slot: Type.Optional(FanoutSlot),
    message: Type.Optional(FanoutMessage),
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
    forwarded: Type.Optional(Type.Boolean({ description: 'Runs on the partition of devices that hold a target token under an id derived from another token (a refresh), for the task of `partition`, which hands on its dispatch' })),
    forwards: Type.Optional(
      Type.Array(Type.Object({ device_id: Type.String({ minLength: 1 }), token: Type.String({ minLength: 1 }) }), {
        description: 'Token holders on further partitions still to visit before the dispatch of `partition` is announced',
      }),
    ),
  }),
  'Work item for the fan-out of one device-events partition: queue the next bounded step of the audience its index holds. Steps of different notifications interleave on the partition, so a long campaign never blocks a short send.',
);
export type FanoutTaskV1 = Static<typeof FanoutTaskV1>;
