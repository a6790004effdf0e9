import Type, { type Static } from 'typebox';
import { eventSchema } from '../envelope.ts';
import { Platform, StringMap } from './common.ts';

export const DeviceRegisteredV2 = eventSchema(
  'DeviceRegistered',
  2,
  Type.Object({
    device_id: Type.String({ minLength: 1 }),
    token: Type.String({ minLength: 1 }),
    platform: Platform,
    identifiers: Type.Optional(StringMap),
    metadata: Type.Optional(StringMap),
    topic_ids: Type.Optional(Type.Array(Type.String())),
    external_id: Type.Optional(Type.String({ minLength: 1, description: "The project's id of the user who owns the device (one user, many devices)" })),
    timezone: Type.Optional(Type.String({ minLength: 1, description: 'IANA time zone name, for local-time sends' })),
    locale: Type.Optional(Type.String({ minLength: 1, description: 'BCP 47 language tag in canonical form (fr-CA), for `{"locale": …}` targets; absent: the previous one is kept' })),
    proven_identifiers: Type.Optional(
      Type.Array(Type.String(), {
        description: "The values of `identifiers` this registration proved (the project's key, or with identity verification on their HMAC): a verified metadata write reaches a device only by a proven value",
      }),
    ),
    anonymous: Type.Optional(
      Type.Boolean({ description: "true: registered without the project's API key (such devices fill only their share of the project's device quota)" }),
    ),
    subscription: Type.Optional(
      Type.Object(
        {
          endpoint: Type.String({ minLength: 1, description: "The push service URL (also the device's `token`)" }),
          p256dh: Type.String({ minLength: 1, description: "The browser's P-256 public key, uncompressed, base64url (RFC 8291)" }),
          auth: Type.String({ minLength: 1, description: 'The 16-byte authentication secret, base64url (RFC 8291)' }),
          expiration_time: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "The browser's `expirationTime` (ms since epoch), when it gave one" })),
          key_id: Type.String({ minLength: 1, description: "The project's VAPID key the browser subscribed with (the application server key): pushes to this subscription are signed with it" }),
        },
        { description: 'web devices: the Web Push subscription (PushSubscription.toJSON()) the pushes are encrypted to' },
      ),
    ),
  }),
  'A device registered or re-registered (token refresh, reactivation). Absent optional fields keep their previous value.',
);
export type DeviceRegisteredV2 = Static<typeof DeviceRegisteredV2>;
