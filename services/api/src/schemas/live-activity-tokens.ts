import Type from 'typebox';
import { APNS_TOKEN_HEX_MAX, APNS_TOKEN_HEX_MIN } from '@herald/push-payloads';
import { BEARER, errorResponses } from './common.ts';
import { LIVE_ACTIVITY_TOKENS_PER_DEVICE } from '../domain/live-activity-tokens.ts';

const DeviceId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The device id' }) });
const ApnsToken = Type.String({
  pattern: '^[0-9a-fA-F]+$',
  minLength: APNS_TOKEN_HEX_MIN,
  maxLength: APNS_TOKEN_HEX_MAX,
  description: 'An APNs token as hex digits (ActivityKit gives `Data`: hex-encode it)',
});
export const ActivityId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$', description: 'The activity (`Activity.id`) whose updates the token receives' });
export const AttributesType = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z_][A-Za-z0-9_.]*$', description: 'The Swift type name of the `ActivityAttributes`' });

export const LiveActivityToken = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Fixed by device, kind and activity (update) or attributes type (push-to-start): a rotated token keeps it' }),
  device_id: Type.String({ format: 'uuid' }),
  kind: Type.Union([Type.Literal('push_to_start'), Type.Literal('update')]),
  token: Type.String(),
  activity_id: Type.Union([Type.String(), Type.Null()]),
  attributes_type: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const AttachLiveActivityTokenBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('push_to_start'), Type.Literal('update')], {
      description: '`push_to_start`: `Activity<…>.pushToStartTokenUpdates` (iOS 17.2+); `update`: an activity\'s `pushTokenUpdates`',
    }),
    token: ApnsToken,
    activity_id: Type.Optional(ActivityId),
    attributes_type: Type.Optional(AttributesType),
    device_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "The device's current push token: the device's proof when no bearer key is sent" })),
  },
  { additionalProperties: false },
);

export const attachLiveActivityTokenSchema = {
  summary: "Attach a Live Activity token to a device (the device's own token or the bearer key proves it)",
  description:
    'Stores an iOS device\'s push-to-start token (one per `attributes_type`) or an activity\'s update token (one per `activity_id`, required for `update`). ' +
    "A rotated token replaces the one in its slot (same id). Proof: the project's bearer key, or the device's current push token in `device_token`; " +
    'without either, or with a token that is not the device\'s, 403 (the same answer whether the device exists or not). ' +
    `A device keeps at most ${LIVE_ACTIVITY_TOKENS_PER_DEVICE} tokens (422 past it); an inactive or non-iOS device is refused with 422.`,
  tags: ['live-activities'],
  security: [{}, ...BEARER],
  params: DeviceId,
  body: AttachLiveActivityTokenBody,
  response: { 201: Type.Object({ data: LiveActivityToken }), ...errorResponses(400, 401, 403, 404, 415, 422) },
} as const;

export const listLiveActivityTokensSchema = {
  summary: "A device's Live Activity tokens",
  description: "Oldest first; 404 for a device that is not the project's.",
  tags: ['live-activities'],
  security: BEARER,
  params: DeviceId,
  response: { 200: Type.Object({ data: Type.Array(LiveActivityToken) }), ...errorResponses(400, 401, 404) },
} as const;

export const deleteLiveActivityTokenSchema = {
  summary: 'Remove a Live Activity token from a device',
  description: "404 when the device or the token is not the project's.",
  tags: ['live-activities'],
  security: BEARER,
  params: Type.Object({ id: Type.String({ format: 'uuid', description: 'The device id' }), token_id: Type.String({ format: 'uuid', description: 'The token id' }) }),
  response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(400, 401, 404) },
} as const;
