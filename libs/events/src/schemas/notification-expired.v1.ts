import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const NotificationExpiredV1 = eventSchema(
  'NotificationExpired',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    reason: Type.String({ description: 'Why it will not be sent, e.g. its ttl passed before its scheduled time could be served' }),
  }),
  'A scheduled notification could no longer be sent in time and never will be.',
);
export type NotificationExpiredV1 = Static<typeof NotificationExpiredV1>;
