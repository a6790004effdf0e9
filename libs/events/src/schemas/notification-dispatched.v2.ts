import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { NotificationDispatchedV1 } from './notification-dispatched.v1.ts';

const v1 = NotificationDispatchedV1.properties.data.properties;

/** v1's counts plus web devices' (Web Push batches) and Huawei devices' (Push Kit batches); absent: none. */
const PerProvider = Type.Object({ apns: Type.Integer({ minimum: 0 }), fcm: Type.Integer({ minimum: 0 }), webpush: Type.Optional(Type.Integer({ minimum: 0 })), hms: Type.Optional(Type.Integer({ minimum: 0 })) });

export const NotificationDispatchedV2 = eventSchema(
  'NotificationDispatched',
  2,
  Type.Object({ ...v1, targeted: PerProvider, batches: PerProvider }),
  'Fan-out resolved the audience (of one device-events partition, and of one slot for a local-time send) and queued every delivery batch (v1 with Web Push counts).',
);
export type NotificationDispatchedV2 = Static<typeof NotificationDispatchedV2>;
