import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const NotificationOpenedV1 = eventSchema(
  'NotificationOpened',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    device_id: Type.String({ minLength: 1 }),
  }),
  'A device opened a notification it received; `occurred_at` is when the open was recorded.',
);
export type NotificationOpenedV1 = Static<typeof NotificationOpenedV1>;
