import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { Target } from './common.ts';
import { PushOptionFields } from './push-options.ts';

export const FanoutStepV1 = eventSchema(
  'FanoutStep',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    step: Type.Integer({
      minimum: 0,
      description: 'Which step of the fan-out this is; step 0 is the NotificationRequested itself, or, for a scheduled send, the record the scheduler publishes when it is due',
    }),
    requested_at: Type.String({ format: 'date-time', description: 'When the notification was requested, or when it was due for a scheduled send (expiry is measured from it)' }),
    slot: Type.Optional(
      Type.Object({
        index: Type.Integer({ minimum: 0, description: 'Which dispatch of a local-time send this is (in due order)' }),
        count: Type.Integer({ minimum: 1, description: 'How many dispatches the send has' }),
        at: Type.String({ format: 'date-time', description: 'The instant this slot is due' }),
        zones: Type.Array(Type.String(), { description: 'Device time zones whose wall clock reads the requested time at `at`' }),
        include_unset: Type.Boolean({ description: "Whether devices without a time zone (the project's default zone) belong to this slot" }),
      }),
    ),
    title: Type.String(),
    body: Type.String(),
    targets: Type.Array(Target, { minItems: 1 }),
    link_to: Type.Optional(Type.String()),
    group: Type.Optional(Type.String()),
    ...PushOptionFields,
  }),
  'Work item for the fan-out: queue the next bounded step of a notification audience. Steps of different notifications interleave on the log, so a long campaign never blocks a short one.',
);
export type FanoutStepV1 = Static<typeof FanoutStepV1>;
