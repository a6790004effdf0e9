import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { FanoutSlot } from './fanout-task.v1.ts';

export const NotificationDueV1 = eventSchema(
  'NotificationDue',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    fanout_id: Type.String({ minLength: 1, description: 'The notification id, or `<id>@<slot>` for one slot of a local-time send' }),
    due_at: Type.String({ format: 'date-time' }),
    slot: Type.Optional(FanoutSlot),
    release: Type.Optional(Type.Boolean({ description: 'The schedule is a deferred batch (frequency cap or quiet hours): the fan-out queues that batch' })),
  }),
  'A scheduled send (send_at, or one time-zone slot of a local-time send) became due; the fan-out sends it now. Published by a delivery scheduler; a repeat (a scheduler that died before recording it) is ignored.',
);
export type NotificationDueV1 = Static<typeof NotificationDueV1>;
