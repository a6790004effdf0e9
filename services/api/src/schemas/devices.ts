import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination, StringMap } from './common.ts';

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
      Type.String({ minLength: 1, description: 'On a token refresh: the id the device had, which it keeps' }),
    ),
    identifiers: Type.Optional(StringMap),
    metadata: Type.Optional(StringMap),
    topics: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100, description: 'Topic names; created on first use' }),
    ),
  },
  { additionalProperties: false },
);

export const registerDeviceSchema = {
  summary: 'Register a device (called by the device; no bearer key)',
  description:
    'Registers a device token, or re-registers it: a re-registered inactive device becomes active again. ' +
    'The device id is derived from (project, token), so registering the same token twice yields one device. ' +
    'Fields left out keep their current values; `topics`, when given, replaces the subscriptions.',
  tags: ['devices'],
  body: RegisterDeviceBody,
  response: { 201: Type.Object({ data: Device }), ...errorResponses(400, 404, 413, 415, 503) },
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
