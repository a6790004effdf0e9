import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { Target } from './common.ts';
import { PushOptionFields } from './push-options.ts';

export const FanoutStepV1 = eventSchema(
  'FanoutStep',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    step: Type.Integer({ minimum: 1, description: 'Which step of the fan-out this is; step 0 is the NotificationRequested itself' }),
    requested_at: Type.String({ format: 'date-time', description: 'When the notification was requested (expiry is measured from it)' }),
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
