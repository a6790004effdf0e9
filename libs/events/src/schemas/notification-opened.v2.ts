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
    variant: Type.Optional(Type.String({ minLength: 1, description: 'An A/B send: the variant the device got, resolved from its delivery when the open was recorded' })),
    locale: Type.Optional(Type.String({ minLength: 1, description: 'A template or localised send: the content locale the device got, resolved from its delivery' })),
  }),
  'A device opened a notification it received; `occurred_at` is when the open was recorded.',
);
export type NotificationOpenedV2 = Static<typeof NotificationOpenedV2>;
