import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const DeviceUnregisteredV1 = eventSchema(
  'DeviceUnregistered',
  1,
  Type.Object({ device_id: Type.String({ minLength: 1 }) }),
  'The project deleted the device: it is never targeted again; registering its token again creates it anew.',
);
export type DeviceUnregisteredV1 = Static<typeof DeviceUnregisteredV1>;
