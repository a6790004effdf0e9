import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { PlatformV1 as Platform, StringMap } from './common.ts';

export const DeviceRegisteredV1 = eventSchema(
  'DeviceRegistered',
  1,
  Type.Object({
    device_id: Type.String({ minLength: 1 }),
    token: Type.String({ minLength: 1 }),
    platform: Platform,
    identifiers: Type.Optional(StringMap),
    metadata: Type.Optional(StringMap),
    topic_ids: Type.Optional(Type.Array(Type.String())),
    external_id: Type.Optional(Type.String({ minLength: 1, description: "The project's id of the user who owns the device (one user, many devices)" })),
    timezone: Type.Optional(Type.String({ minLength: 1, description: 'IANA time zone name, for local-time sends' })),
    proven_identifiers: Type.Optional(
      Type.Array(Type.String(), {
        description: "The values of `identifiers` this registration proved (the project's key, or with identity verification on their HMAC): a verified metadata write reaches a device only by a proven value",
      }),
    ),
    anonymous: Type.Optional(
      Type.Boolean({ description: "true: registered without the project's API key (such devices fill only their share of the project's device quota)" }),
    ),
  }),
  'A device registered or re-registered (token refresh, reactivation). Absent optional fields keep their previous value.',
);
export type DeviceRegisteredV1 = Static<typeof DeviceRegisteredV1>;
