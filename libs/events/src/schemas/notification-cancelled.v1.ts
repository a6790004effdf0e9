import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const NotificationCancelledV1 = eventSchema(
  'NotificationCancelled',
  1,
  Type.Object({ notification_id: Type.String({ minLength: 1 }) }),
  'A client cancelled the notification: batches not yet sent are not sent and count as cancelled. Repeats change nothing.',
);
export type NotificationCancelledV1 = Static<typeof NotificationCancelledV1>;
