import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';

export const TokenAssignedV1 = eventSchema(
  'TokenAssigned',
  1,
  Type.Object({
    token_device_id: Type.String({ minLength: 1, description: 'The id a device registering this token would be given (derived from project and token): the record key' }),
    device_id: Type.String({ minLength: 1, description: 'The device that holds the token (its id was derived from an earlier token)' }),
    token: Type.String({ minLength: 1 }),
  }),
  'A device kept its id and took a new token (a token refresh). Written under the id derived from the token, so whoever looks the token up by that id (the delivery audience index of its partition) finds the device holding it; DeviceRegistered of that device stays the fact about its state.',
);
export type TokenAssignedV1 = Static<typeof TokenAssignedV1>;
