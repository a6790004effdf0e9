import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const NotificationSteeredV1 = eventSchema(
  'NotificationSteered',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    state: Type.Optional(Type.Union([Type.Literal('paused'), Type.Literal('sending')], { description: '`paused`: nothing more is queued or sent until `sending` (resume), which continues where it stopped' })),
    rate_per_minute: Type.Optional(Type.Integer({ minimum: 1, description: 'The pace from now on (pushes per minute across every delivery instance)' })),
  }),
  'A client paused, resumed or re-paced a notification in flight (PATCH /api/v1/notifications/{id}).',
);
export type NotificationSteeredV1 = Static<typeof NotificationSteeredV1>;
