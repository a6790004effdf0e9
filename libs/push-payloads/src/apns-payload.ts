import type { PushMessage } from './push-message.ts';

/**
 * The APNs JSON body: Apple's `aps` dictionary plus Herald's custom keys.
 * https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification
 */
export interface ApnsPayload {
  aps: {
    alert: { title: string; body: string };
    /** Groups notifications in Notification Center. */
    'thread-id'?: string;
  };
  notification_id: string;
  project_id: string;
  link_to?: string;
}

/** Body plus the per-notification headers; the client adds `apns-topic` (the project's bundle id). */
export interface ApnsRequest {
  payload: ApnsPayload;
  /** `alert` because the payload shows an alert; Apple requires the type to match the content. */
  pushType: 'alert';
  /** 10: deliver immediately (allowed for alerts). */
  priority: 10;
  /** `apns-collapse-id`: only when asked; replaces an earlier notification with the same id on the device. */
  collapseId?: string;
}

export function buildApnsPayload(message: PushMessage): ApnsPayload {
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

export function buildApnsRequest(message: PushMessage, options: { collapseId?: string | undefined } = {}): ApnsRequest {
  return {
    payload: buildApnsPayload(message),
    pushType: 'alert',
    priority: 10,
    ...(options.collapseId === undefined ? {} : { collapseId: options.collapseId }),
  };
}

/** Bytes on the wire: the body is this JSON, UTF-8 encoded. */
export function apnsPayloadBytes(payload: ApnsPayload): number {
  return Buffer.byteLength(JSON.stringify(payload));
}
