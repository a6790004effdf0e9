import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

const PerProvider = Type.Object({ apns: Type.Integer({ minimum: 0 }), fcm: Type.Integer({ minimum: 0 }) });

export const NotificationDispatchedV1 = eventSchema(
  'NotificationDispatched',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    targeted: PerProvider,
    batches: PerProvider,
    slot: Type.Optional(
      Type.String({ minLength: 1, description: 'A local-time send dispatches once per time-zone slot; absent for a send with one dispatch' }),
    ),
    slots: Type.Optional(Type.Integer({ minimum: 1, description: 'How many dispatches the notification has in all (default 1)' })),
    partition: Type.Optional(
      Type.Integer({ minimum: 0, description: 'The herald.device-events partition whose devices this dispatch covers (the audience is fanned out per partition); absent: the whole audience' }),
    ),
    partitions: Type.Optional(Type.Integer({ minimum: 1, description: 'How many partition dispatches each slot of the notification has (default 1)' })),
  }),
  'Fan-out resolved the audience (of one device-events partition, and of one slot for a local-time send) and queued every delivery batch.',
);
export type NotificationDispatchedV1 = Static<typeof NotificationDispatchedV1>;
