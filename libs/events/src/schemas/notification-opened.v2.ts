import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const NotificationOpenedV2 = eventSchema(
  'NotificationOpened',
  2,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    device_id: Type.String({ minLength: 1 }),
    batch_id: Type.Optional(
      Type.String({ minLength: 1, description: 'The delivery batch that delivered it to this device, resolved when the open was recorded' }),
    ),
  }),
  'A device opened a notification it received; `occurred_at` is when the open was recorded.',
);
export type NotificationOpenedV2 = Static<typeof NotificationOpenedV2>;
