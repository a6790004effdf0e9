import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { Target } from './common.ts';

export const NotificationRequestedV1 = eventSchema(
  'NotificationRequested',
  1,
  Type.Object({
    notification_id: Type.String({ minLength: 1 }),
    title: Type.String(),
    body: Type.String(),
    targets: Type.Array(Target, { minItems: 1 }),
    link_to: Type.Optional(Type.String()),
    group: Type.Optional(Type.String()),
  }),
  'A client asked for a notification to be sent to its targets.',
);
export type NotificationRequestedV1 = Static<typeof NotificationRequestedV1>;
