import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const DeliveryControlV1 = eventSchema(
  'DeliveryControl',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    cancelled: Type.Optional(Type.Boolean({ description: 'Nothing more of the notification is queued or sent' })),
  }),
  'Work item on herald.delivery-control, which every delivery instance follows: how a notification in flight must be treated from now on (derived by the fan-out from NotificationCancelled).',
);
export type DeliveryControlV1 = Static<typeof DeliveryControlV1>;
