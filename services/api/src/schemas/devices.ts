import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination, StringMap } from './common.ts';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';

export const Device = Type.Object(
  {
    id: Type.String(),
    token: Type.String(),
    platform: Type.Enum(['ios', 'android']),
    status: Type.Enum(['active', 'inactive']),
    metadata: StringMap,
    identifiers: StringMap,
    topics: Type.Array(Type.String(), { description: 'Ids of the topics the device is subscribed to' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Device' },
);

export const RegisterDeviceBody = Type.Object(
  {
    project_id: Type.String({ minLength: 1 }),
    token: Type.String({ minLength: 1, maxLength: 4096, description: 'APNs device token or FCM registration token' }),
    platform: Type.Enum(['ios', 'android']),
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
    metadata: Type.Optional(StringMap),
    topics: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
        maxItems: DEVICE_LIMITS.topicsPerRegistration,
        description: `Topic names; created on first use (at most ${DEVICE_LIMITS.topicsPerProject} topics per project)`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const registerDeviceSchema = {
  summary: 'Register a device (called by the device; no bearer key)',
  description:
    'Registers a device token, or re-registers it: a re-registered inactive device becomes active again. ' +
    'The device id is derived from (project, token), so registering the same token twice yields one device. ' +
    'Fields left out keep their current values; `topics`, when given, replaces the subscriptions. ' +
    'A token refresh names the existing `device_id` with a new token and proves it is that device: `previous_token` ' +
    "equal to the device's current token, or the project's bearer key; without proof it is refused with 403 and nothing changes. " +
    'The answer is the caller\'s own device only (the caller holds its token).',
  tags: ['devices'],
  // The bearer key is optional here: it only serves as proof for a token refresh.
  security: [{}, ...BEARER],
  body: RegisterDeviceBody,
  response: { 201: Type.Object({ data: Device }), ...errorResponses(400, 401, 403, 404, 413, 415, 503) },
} as const;

export const ListDevicesQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(Type.Enum(['active', 'inactive'])) },
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
