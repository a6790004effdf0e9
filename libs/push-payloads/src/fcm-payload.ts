import { mergeOverride } from './merge-override.ts';
import { isSilent, utf8Bytes, type PushMessage } from './push-message.ts';

/**
 * An FCM HTTP v1 `message` without its target; the client adds `token`.
 * https://firebase.google.com/docs/reference/fcm/rest/v1/projects.messages
 * Structurally a firebase-admin `Message` minus the token, so its field
 * names are firebase-admin's (camelCase; it renames them to the v1 wire
 * names, e.g. `collapseKey` → `collapse_key`, `ttl` ms → "3600s"). Herald
 * sends FCM to Android devices (iOS devices go to APNs), so options map to
 * `android`.
 */
export interface FcmMessage {
  /** Absent for a silent (data-only) push. */
  notification?: { title: string; body: string; imageUrl?: string };
  /** FCM requires every data value to be a string; absent fields are left out, not sent empty. */
  data: Record<string, string>;
  android?: {
    priority?: 'high' | 'normal';
    /** Milliseconds (firebase-admin sends it as a duration in seconds). */
    ttl?: number;
    collapseKey?: string;
    notification?: { tag?: string; sound?: string; notificationCount?: number; clickAction?: string };
  };
  [key: string]: unknown;
}

export function buildFcmMessage(message: PushMessage): FcmMessage {
  const tag = message.thread_id ?? message.group;
  const androidNotification = {
    ...(tag === undefined ? {} : { tag }),
    ...(message.sound === undefined ? {} : { sound: message.sound }),
    ...(message.badge === undefined ? {} : { notificationCount: message.badge }),
    ...(message.category === undefined ? {} : { clickAction: message.category }),
  };
  const android = {
    ...(message.priority === undefined ? {} : { priority: message.priority }),
    ...(message.ttl === undefined ? {} : { ttl: message.ttl * 1000 }),
    ...(message.collapse_id === undefined ? {} : { collapseKey: message.collapse_id }),
    ...(isSilent(message) || Object.keys(androidNotification).length === 0 ? {} : { notification: androidNotification }),
  };
  const built: FcmMessage = {
    ...(isSilent(message) ? {} : { notification: { title: message.title, body: message.body, ...(message.image === undefined ? {} : { imageUrl: message.image }) } }),
    data: {
      ...message.data,
      notification_id: message.notification_id,
      project_id: message.project_id,
      ...(message.link_to === undefined ? {} : { link_to: message.link_to }),
    },
    ...(Object.keys(android).length === 0 ? {} : { android }),
  };
  return mergeOverride(built, message.fcm);
}

/**
 * Google does not define how the 4096 bytes are counted; the JSON of the
 * message without its target is an upper bound (it includes key names and
 * punctuation), so a message that fits here fits at Google. The fake FCM
 * counts the same way.
 */
export function fcmPayloadBytes(message: FcmMessage): number {
  return utf8Bytes(JSON.stringify(message));
}
