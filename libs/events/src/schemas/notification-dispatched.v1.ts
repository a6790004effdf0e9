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
  }),
  'Fan-out resolved the audience and queued every delivery batch.',
);
export type NotificationDispatchedV1 = Static<typeof NotificationDispatchedV1>;
