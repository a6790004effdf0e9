import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { ProviderV1 as Provider } from './common.ts';

export const DeviceDeactivatedV1 = eventSchema(
  'DeviceDeactivated',
  1,
  Type.Object({
    device_id: Type.String({ minLength: 1 }),
    provider: Provider,
    reason: Type.String({ description: "Provider's reason code, e.g. Unregistered, BadDeviceToken, UNREGISTERED" }),
    notification_id: Type.Optional(Type.String()),
    provider_timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'When the provider says the token stopped being valid (APNs 410)' })),
  }),
  'A provider reported the device token invalid; the device receives nothing until it registers again.',
);
export type DeviceDeactivatedV1 = Static<typeof DeviceDeactivatedV1>;
