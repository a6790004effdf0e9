import Type from 'typebox';
import { BEARER, errorResponses, MAP_KEYS, PageQuery, Pagination, StringMap } from './common.ts';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';

export const Device = Type.Object(
  {
    id: Type.String(),
    token: Type.String({ description: 'The APNs, FCM or HMS token; for a web device, its push subscription endpoint' }),
    platform: Type.Enum(['ios', 'android', 'web', 'huawei']),
    status: Type.Enum(['active', 'inactive']),
    metadata: StringMap,
    identifiers: StringMap,
    topics: Type.Array(Type.String(), { description: 'Ids of the topics the device is subscribed to' }),
    external_id: Type.Union([Type.String(), Type.Null()], { description: "The project's id of the user who owns the device" }),
    timezone: Type.Union([Type.String(), Type.Null()], { description: 'IANA time zone name' }),
    locale: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'BCP 47 language tag, canonical (fr-CA); null: none registered' })),
    deactivation: Type.Union(
      [Type.Object({ reason: Type.String(), provider: Type.Optional(Type.String()), at: Type.String({ format: 'date-time' }) }), Type.Null()],
      { description: 'Why it is inactive: the provider rejected its token (`provider` set), or the project unregistered it (reason `Unregistered`)' },
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Device' },
);

export const RegisterDeviceBody = Type.Object(
  {
    project_id: Type.String({ minLength: 1 }),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'APNs device token, FCM registration token or HMS push token (required for ios, android and huawei; web devices send `subscription`)' })),
    platform: Type.Enum(['ios', 'android', 'web', 'huawei'], { description: 'huawei: an Android device with Huawei Mobile Services and no Google services, sent through Huawei Push Kit' }),
    subscription: Type.Optional(
      Type.Object(
        {
          endpoint: Type.String({ minLength: 1, maxLength: 2048, description: "The push service URL: https to a public host (the device's token from now on)" }),
          expirationTime: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
          keys: Type.Object(
            {
              p256dh: Type.String({ minLength: 1, maxLength: 128, description: 'base64url of an uncompressed P-256 public key' }),
              auth: Type.String({ minLength: 1, maxLength: 64, description: 'base64url of the 16-byte authentication secret' }),
            },
            { additionalProperties: false },
          ),
        },
        {
          additionalProperties: false,
          description:
            "platform web: the browser's `PushSubscription.toJSON()` as it is. The device id is derived from (project, endpoint); a new endpoint for the same " +
            "device is a token refresh (`device_id` with `previous_token` = the old endpoint, or the bearer key)",
        },
      ),
    ),
    application_server_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          "platform web: the key the browser subscribed with (`subscription.options.applicationServerKey`, base64url); it must be one of the project's Web Push keys. " +
          "Absent: the project's current key",
      }),
    ),
    device_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'On a token refresh: the id the device had, which it keeps' }),
    ),
    previous_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description: "On a token refresh: the device's current token, which proves the caller is that device (or send the project's bearer key)",
      }),
    ),
    identifiers: Type.Optional(StringMap),
    identifier_hashes: Type.Optional(
      Type.Record(Type.String(), Type.String({ pattern: '^[0-9a-fA-F]{64}$' }), {
        maxProperties: DEVICE_LIMITS.mapEntries,
        description:
          'With identity verification on: per name in `identifiers`, the hex HMAC-SHA256 of `"identifier:" + value` under the project’s device-auth secret ' +
          '(the proof a metadata write by that value takes). A verified metadata write (`identifier_hash`) reaches a device by an identifier value only when its ' +
          "registration proved it (or was made with the project's bearer key); values without proof are stored but never reached by a verified write.",
      }),
    ),
    metadata: Type.Optional(StringMap),
    external_id: Type.Optional(
      Type.Union(
        [
          Type.String({ minLength: 1, maxLength: 256, pattern: '^[^\\u0000-\\u001f\\u2028\\u2029]+$' }),
          Type.Null(),
        ],
        {
          description:
            "The project's id of the user who owns the device; a target `{\"external_id\": …}` reaches all of that user's active devices. " +
            "Needs proof: the project's bearer key, or `external_id_hash` with identity verification on. " +
            '`null` unlinks the device from its user (the app signed out); no proof needed. A device coming back from inactive comes back without its user.',
        },
      ),
    ),
    external_id_hash: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'Hex HMAC-SHA256 of "external_id:" + external_id under the project’s device-auth secret' }),
    ),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name (e.g. Europe/Paris), for local-time sends' })),
    locale: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'BCP 47 language tag (e.g. fr-CA), stored in canonical form, for `{"locale": …}` targets; absent: the previous one is kept' })),
    topics: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
        maxItems: DEVICE_LIMITS.topicsPerRegistration,
        description:
          'Names of topics to subscribe to (replacing the subscriptions). Each must exist (POST /api/v1/topics), unless the project lets devices create topics; ' +
          `then a new name is created as a device-created topic (at most ${DEVICE_LIMITS.deviceTopicsPerProject} per project), never taking a device's id or token`,
      }),
    ),
  },
  { additionalProperties: false },
);

const DeviceId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The device id' }) });

export const getDeviceSchema = {
  summary: 'A device of the current project',
  description: 'A device the project deleted is `inactive` with `deactivation.reason` `Unregistered`; 404 for an id that is not the project\'s.',
  tags: ['devices'],
  security: BEARER,
  params: DeviceId,
  response: { 200: Type.Object({ data: Device }), ...errorResponses(400, 401, 404) },
} as const;

export const deleteDeviceSchema = {
  summary: 'Unregister a device',
  description:
    'Publishes DeviceUnregistered: the device becomes `inactive` (reason `Unregistered`) and is never targeted again; its receipts stay. ' +
    'It still lists, with `status=inactive`. If the app registers the same token again, the device is active again. Repeating is harmless (204).',
  tags: ['devices'],
  security: BEARER,
  params: DeviceId,
  response: { 204: Type.Null({ description: 'Unregistered' }), ...errorResponses(400, 401, 404, 503) },
} as const;

export const purgeDevicesSchema = {
  summary: 'Purge the devices the project deleted',
  description:
    'Publishes DevicePurged for each device of the project that was deleted (`DELETE /api/v1/devices/{id}`, status `inactive`, reason `Unregistered`), ' +
    'at most 1,000 a call, oldest first: they leave the device list, its counts and the delivery audience index, and a rebuild or replay of the log leaves them out too. ' +
    'Their receipts (delivery history) stay. Devices made inactive by a provider are not purged; a deleted device registered again before its purge is applied stays. ' +
    'Answers how many were purged and whether deleted devices are left for another call (`more`). ' +
    'The list shows the change once the projector has applied it (moments later); calling again before that purges the same devices again, harmlessly.',
  tags: ['devices'],
  security: BEARER,
  response: {
    200: Type.Object({ data: Type.Object({ purged: Type.Integer({ minimum: 0 }), more: Type.Boolean() }) }),
    ...errorResponses(401, 503),
  },
} as const;

export const updateDeviceSchema = {
  summary: 'Detach a device from its user',
  description:
    '`{"external_id": null}` unlinks the device (publishes DeviceUnlinked): an `{"external_id": …}` target no longer reaches it. ' +
    'Answers the device as it will read. Harmless when it has no user. To link a device to a user, register it with the bearer key (or `external_id_hash`).',
  tags: ['devices'],
  security: BEARER,
  params: DeviceId,
  body: Type.Object({ external_id: Type.Null() }, { additionalProperties: false }),
  response: { 200: Type.Object({ data: Device }), ...errorResponses(400, 401, 404, 413, 415, 503) },
} as const;

export const registerDeviceSchema = {
  summary: 'Register a device (called by the device; no bearer key)',
  description:
    'Registers a device token, or re-registers it: a re-registered inactive device becomes active again. ' +
    'The device id is derived from (project, token), so registering the same token twice yields one device. ' +
    'Fields left out keep their current values; `topics`, when given, replaces the subscriptions. ' +
    'A token refresh names the existing `device_id` with a new token and proves it is that device: `previous_token` ' +
    "equal to the device's current token, or the project's bearer key; without proof it is refused with 403 and nothing changes. " +
    "A token that was a device's first one while the device now holds another is refused with 409 (moving it back needs a refresh's proof). " +
    'A web device (`platform` web) sends `subscription` instead of `token`: its endpoint must be https to a public host and its keys a P-256 point and a 16-byte secret (400 naming the field); ' +
    "the project needs Web Push keys first (422 otherwise; `GET /api/v1/webpush/public-key`). " +
    'A device over DEVICE_MAX_BYTES or a new device past the project\'s device quota is refused with 400; ' +
    'a new device-created topic whose name has an id\'s or a device token\'s form with 422 (a plain target string of that form names a device, never a topic). ' +
    'The answer is the caller\'s own device only (the caller holds its token).',
  tags: ['devices'],
  // The bearer key is optional here: it only serves as proof for a token refresh.
  security: [{}, ...BEARER],
  body: RegisterDeviceBody,
  response: { 201: Type.Object({ data: Device }), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 503) },
} as const;

export const ListDevicesQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Enum(['active', 'inactive'])),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Only the device with exactly this token' })),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "Only the devices of this user (the project's external id)" })),
    platform: Type.Optional(Type.Enum(['ios', 'android', 'web', 'huawei'], { description: 'Only the devices of this platform' })),
    metadata_key: Type.Optional(Type.String({ pattern: MAP_KEYS.propertyNames.pattern, description: 'With metadata_value: only the devices whose metadata has this key with that value' })),
    metadata_value: Type.Optional(Type.String({ maxLength: DEVICE_LIMITS.valueLength, description: 'The value metadata_key must have (exactly, as stored)' })),
  },
  { additionalProperties: false },
);

export const listDevicesSchema = {
  summary: 'List devices of the current project',
  description: 'Devices in creation order (then id). A page past the last one is empty.',
  tags: ['devices'],
  security: BEARER,
  querystring: ListDevicesQuery,
  response: { 200: Type.Object({ data: Type.Array(Device), pagination: Pagination }), ...errorResponses(400, 401) },
} as const;
