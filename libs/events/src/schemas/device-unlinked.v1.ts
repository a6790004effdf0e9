import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const DeviceUnlinkedV1 = eventSchema(
  'DeviceUnlinked',
  1,
  Type.Object({ device_id: Type.String({ minLength: 1 }) }),
  'The device no longer belongs to a user: its external_id is cleared (the project detached it, or the app signed out). ' +
    'An `{"external_id": …}` target no longer reaches it.',
);
export type DeviceUnlinkedV1 = Static<typeof DeviceUnlinkedV1>;
