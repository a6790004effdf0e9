/**
 * What a device receives, built in one place: the API checks that a
 * notification fits before accepting it, and the senders build exactly the
 * same payloads. Both carry `notification_id` and `project_id`, which the
 * device echoes to `PUT /api/v1/notifications/{id}/open`.
 */
export interface PushMessage {
  notification_id: string;
  project_id: string;
  title: string;
  body: string;
  link_to?: string | undefined;
  group?: string | undefined;
}

/**
 * Both providers refuse payloads over 4 KB.
 * APNs: https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
 * FCM: https://firebase.google.com/docs/cloud-messaging/concept-options#notifications_and_data_messages
 */
export const PAYLOAD_LIMIT_BYTES = 4096;

/** The APNs JSON payload: `aps.alert`, `aps.thread-id` = group, custom keys beside `aps`. */
export function apnsPayload(message: PushMessage): Record<string, unknown> {
  return {
    aps: {
      alert: { title: message.title, body: message.body },
      ...(message.group === undefined ? {} : { 'thread-id': message.group }),
    },
    notification_id: message.notification_id,
    project_id: message.project_id,
    ...(message.link_to === undefined ? {} : { link_to: message.link_to }),
  };
}

/** The FCM HTTP v1 message body for one token (data values must be strings). */
export function fcmMessage(message: PushMessage, token: string) {
  return {
    token,
    notification: { title: message.title, body: message.body },
    data: {
      notification_id: message.notification_id,
      project_id: message.project_id,
      ...(message.link_to === undefined ? {} : { link_to: message.link_to }),
    },
    ...(message.group === undefined ? {} : { android: { notification: { tag: message.group } } }),
  };
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Size of the parts FCM counts against its limit (everything but the token). */
export function fcmPayloadBytes(message: PushMessage): number {
  const { token: _token, ...payload } = fcmMessage(message, '');
  return byteLength(payload);
}

export function apnsPayloadBytes(message: PushMessage): number {
  return byteLength(apnsPayload(message));
}

/** Why a message cannot be delivered as it is; empty when it fits both providers. */
export function payloadProblems(message: PushMessage): string[] {
  const apns = apnsPayloadBytes(message);
  const fcm = fcmPayloadBytes(message);
  const largest = Math.max(apns, fcm);
  if (largest <= PAYLOAD_LIMIT_BYTES) return [];
  return [
    `notification is too large: its push payload would be ${largest} bytes and APNs and FCM accept at most ${PAYLOAD_LIMIT_BYTES} (shorten title, body or link_to)`,
  ];
}
