import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const DeliveryControlV1 = eventSchema(
  'DeliveryControl',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    cancelled: Type.Optional(Type.Boolean({ description: 'Nothing more of the notification is queued or sent' })),
    paused: Type.Optional(Type.Boolean({ description: 'true: nothing more is queued or sent until a record with false (resume); its devices are held, not lost' })),
    rate_per_minute: Type.Optional(Type.Integer({ minimum: 1, description: 'The pace from now on, replacing the requested `rate_per_minute`' })),
  }),
  'Work item on herald.delivery-control, which every delivery instance follows: how a notification in flight must be treated from now on (derived by the fan-out from NotificationCancelled and NotificationSteered; the latest record of a notification wins, a cancel is final).',
);
export type DeliveryControlV1 = Static<typeof DeliveryControlV1>;
