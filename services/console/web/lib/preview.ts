import { buildApnsRequest, buildFcmMessage, fitsProviderLimits, utf8Bytes, PROVIDER_PAYLOAD_LIMIT_BYTES, type PushMessage } from '@herald/push-payloads';
import type { NotificationRequest } from './draft.ts';

/** Ids of the real length (UUIDv7: 36 characters), so sizes are what the providers will count. */
const PLACEHOLDER_ID = '00000000-0000-7000-8000-000000000000';

export interface Preview {
  apns: { headers: Record<string, string | number>; payload: unknown; bytes: number };
  fcm: { message: unknown; bytes: number };
  limit: number;
  problems: string[];
}

/** What APNs and FCM will receive for this request: built by the same builders the senders use (libs/push-payloads). */
export function previewOf(request: NotificationRequest, projectId = PLACEHOLDER_ID, now = Date.now()): Preview {
  // Targets, schedule and campaign control are not part of what a device receives.
  const { targets: _targets, send_at: _at, send_at_local: _local, rate_per_minute: _rate, max_duration: _duration, priority_lane: _lane, ...fields } = request;
  const message: PushMessage = { ...(fields as Omit<PushMessage, 'notification_id' | 'project_id'>), notification_id: PLACEHOLDER_ID, project_id: projectId };
  const apns = buildApnsRequest(message, now);
  const fcm = buildFcmMessage(message);
  const headers: Record<string, string | number> = { 'apns-push-type': apns.pushType, 'apns-priority': apns.priority };
  if (apns.collapseId !== undefined) headers['apns-collapse-id'] = apns.collapseId;
  if (apns.expiry !== undefined) headers['apns-expiration'] = apns.expiry;
  return {
    apns: { headers, payload: apns.payload, bytes: utf8Bytes(JSON.stringify(apns.payload)) },
    fcm: { message: fcm, bytes: utf8Bytes(JSON.stringify(fcm)) },
    limit: PROVIDER_PAYLOAD_LIMIT_BYTES,
    problems: fitsProviderLimits(message),
  };
}
