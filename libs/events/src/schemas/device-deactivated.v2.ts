import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { Provider } from './common.ts';
import { DeviceDeactivatedV1 } from './device-deactivated.v1.ts';

const v1 = DeviceDeactivatedV1.properties.data.properties;

/** v1 with the wider provider: a push service that says a web subscription is gone (404/410) deactivates its device too. */
export const DeviceDeactivatedV2 = eventSchema(
  'DeviceDeactivated',
  2,
  Type.Object({
    ...v1,
    provider: Provider,
    reason: Type.String({ description: "Provider's reason code, e.g. Unregistered, BadDeviceToken, UNREGISTERED, SubscriptionGone (Web Push 404/410)" }),
  }),
  'A provider reported the device token (a web device: its subscription) invalid; the device receives nothing until it registers again.',
);
export type DeviceDeactivatedV2 = Static<typeof DeviceDeactivatedV2>;
