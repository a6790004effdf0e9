import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const DevicePurgedV1 = eventSchema(
  'DevicePurged',
  1,
  Type.Object({ device_id: Type.String({ minLength: 1 }) }),
  'The project purged a device it had deleted (DeviceUnregistered): the device leaves the devices read model and the delivery audience index, and a replay leaves it out too; its receipts stay. A device registered again since it was deleted is not purged.',
);
export type DevicePurgedV1 = Static<typeof DevicePurgedV1>;
