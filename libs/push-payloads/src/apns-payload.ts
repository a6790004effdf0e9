import { mergeOverride } from './merge-override.ts';
import { isSilent, utf8Bytes, type PushMessage } from './push-message.ts';

/**
 * The APNs JSON body: Apple's `aps` dictionary, the custom `data` keys, and
 * Herald's ids, then the client's raw `apns` object merged over it.
 * https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification
 */
export interface ApnsPayload {
  aps: {
    alert?: { title: string; body: string };
    badge?: number;
    sound?: string;
    /** Groups notifications in Notification Center. */
    'thread-id'?: string;
    category?: string;
    'content-available'?: 1;
    'mutable-content'?: 1;
    [key: string]: unknown;
  };
  notification_id: string;
  project_id: string;
  link_to?: string;
  /** For a Notification Service Extension to download and attach. */
  image?: string;
  [key: string]: unknown;
}

/** Body plus the per-notification headers; the client adds `apns-topic` (the project's bundle id). */
export interface ApnsRequest {
  payload: ApnsPayload;
  /** `background` for a silent push, else `alert`: Apple requires the type to match the content. */
  pushType: 'alert' | 'background';
  /** 10: now; 5: when power allows (required for background pushes). */
  priority: 10 | 5;
  /** `apns-collapse-id`: only when asked; replaces an earlier notification with the same id on the device. */
  collapseId?: string;
  /** `apns-expiration` (UNIX seconds): 0 means deliver now or never. Absent: Apple's default (it stores and retries). */
  expiry?: number;
}

export function buildApnsPayload(message: PushMessage): ApnsPayload {
  const threadId = message.thread_id ?? message.group;
  const built: ApnsPayload = {
    ...message.data,
    aps: {
      ...(isSilent(message) ? {} : { alert: { title: message.title, body: message.body } }),
      ...(message.badge === undefined ? {} : { badge: message.badge }),
      ...(message.sound === undefined ? {} : { sound: message.sound }),
      ...(threadId === undefined ? {} : { 'thread-id': threadId }),
      ...(message.category === undefined ? {} : { category: message.category }),
      ...(message.content_available === true ? { 'content-available': 1 as const } : {}),
      ...(message.mutable_content === true ? { 'mutable-content': 1 as const } : {}),
    },
    notification_id: message.notification_id,
    project_id: message.project_id,
    ...(message.link_to === undefined ? {} : { link_to: message.link_to }),
    ...(message.image === undefined ? {} : { image: message.image }),
  };
  return mergeOverride(built, message.apns);
}

/** `now` (ms) turns `ttl` into the absolute `apns-expiration` Apple wants. */
export function buildApnsRequest(message: PushMessage, now = Date.now()): ApnsRequest {
  const silent = isSilent(message);
  const collapseId = message.collapse_id;
  return {
    payload: buildApnsPayload(message),
    pushType: silent ? 'background' : 'alert',
    priority: silent || message.priority === 'normal' ? 5 : 10,
    ...(collapseId === undefined ? {} : { collapseId }),
    ...(message.ttl === undefined ? {} : { expiry: message.ttl === 0 ? 0 : Math.floor(now / 1000) + message.ttl }),
  };
}

/** Bytes on the wire: the body is this JSON, UTF-8 encoded. */
export function apnsPayloadBytes(payload: ApnsPayload): number {
  return utf8Bytes(JSON.stringify(payload));
}
