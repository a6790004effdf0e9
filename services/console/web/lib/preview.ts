import {
  buildApnsRequest,
  buildFcmMessage,
  buildHmsMessage,
  buildWebPushPayload,
  fitsProviderLimits,
  HMS_MAX_PAYLOAD_BYTES,
  hmsPayloadBytes,
  utf8Bytes,
  PROVIDER_PAYLOAD_LIMIT_BYTES,
  WEB_PUSH_PLAINTEXT_LIMIT_BYTES,
  webPushHeaders,
  webPushPayloadBytes,
  webPushPlaintext,
  webPushTopic,
  type HmsMessage,
  type PushMessage,
  type WebPushPayload,
} from '@herald/push-payloads';
import type { NotificationRequest } from './draft.ts';

/** Ids of the real length (UUIDv7: 36 characters), so sizes are what the providers will count. */
const PLACEHOLDER_ID = '00000000-0000-7000-8000-000000000000';

/**
 * The sender sends a collapse id that is not a valid Topic as its SHA-256
 * (node:crypto; a browser has only the asynchronous digest), so the preview
 * says so instead of leaving the header out as if none were sent.
 */
const hashedTopic = (collapseId: string): string => webPushTopic(collapseId) ?? '(SHA-256 of the collapse id, 32 base64url characters)';

export interface Preview {
  apns: { headers: Record<string, string | number>; payload: unknown; bytes: number };
  fcm: { message: unknown; bytes: number };
  /** The Declarative Web Push JSON a browser decrypts, and the headers beside the encrypted body. */
  webpush: { payload: WebPushPayload; plaintext: string; headers: Record<string, string>; bytes: number; limit: number };
  hms: { message: HmsMessage; bytes: number; limit: number };
  limit: number;
  problems: string[];
}

/** What APNs, FCM, Web Push and Push Kit will receive for this request: built by the same builders the senders use (libs/push-payloads). */
export function previewOf(request: NotificationRequest, projectId = PLACEHOLDER_ID, now = Date.now()): Preview {
  // Targets, schedule and campaign control are not part of what a device receives.
  const { targets: _targets, send_at: _at, send_at_local: _local, rate_per_minute: _rate, max_duration: _duration, priority_lane: _lane, ...fields } = request;
  const message: PushMessage = { ...(fields as Omit<PushMessage, 'notification_id' | 'project_id'>), notification_id: PLACEHOLDER_ID, project_id: projectId };
  const apns = buildApnsRequest(message, now);
  const fcm = buildFcmMessage(message);
  const headers: Record<string, string | number> = { 'apns-push-type': apns.pushType, 'apns-priority': apns.priority };
  if (apns.collapseId !== undefined) headers['apns-collapse-id'] = apns.collapseId;
  if (apns.expiry !== undefined) headers['apns-expiration'] = apns.expiry;
  const webPayload = buildWebPushPayload(message);
  const hms = buildHmsMessage(message);
  return {
    apns: { headers, payload: apns.payload, bytes: utf8Bytes(JSON.stringify(apns.payload)) },
    fcm: { message: fcm, bytes: utf8Bytes(JSON.stringify(fcm)) },
    webpush: {
      payload: webPayload,
      plaintext: webPushPlaintext(webPayload),
      headers: webPushHeaders(message, hashedTopic),
      bytes: webPushPayloadBytes(webPayload),
      limit: WEB_PUSH_PLAINTEXT_LIMIT_BYTES,
    },
    hms: { message: hms, bytes: hmsPayloadBytes(hms), limit: HMS_MAX_PAYLOAD_BYTES },
    limit: PROVIDER_PAYLOAD_LIMIT_BYTES,
    problems: fitsProviderLimits(message),
  };
}
