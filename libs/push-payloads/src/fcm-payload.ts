import type { PushMessage } from './push-message.ts';

/**
 * An FCM HTTP v1 `message` without its target; the client adds `token`.
 * https://firebase.google.com/docs/reference/fcm/rest/v1/projects.messages
 * Structurally a firebase-admin `Message` minus the token.
 */
export interface FcmMessage {
  notification: { title: string; body: string };
  /** FCM requires every data value to be a string; absent fields are left out, not sent empty. */
  data: Record<string, string>;
  /** `tag` replaces an earlier notification with the same tag in the Android tray. */
  android?: { notification: { tag: string } };
}

export function buildFcmMessage(message: PushMessage): FcmMessage {
  return {
    notification: { title: message.title, body: message.body },
    data: {
      notification_id: message.notification_id,
      project_id: message.project_id,
      ...(message.link_to === undefined ? {} : { link_to: message.link_to }),
    },
    ...(message.group === undefined ? {} : { android: { notification: { tag: message.group } } }),
  };
}

/**
 * Google does not define how the 4096 bytes are counted; the JSON of the
 * message without its target is an upper bound (it includes key names and
 * punctuation), so a message that fits here fits at Google. The fake FCM
 * counts the same way.
 */
export function fcmPayloadBytes(message: FcmMessage): number {
  return Buffer.byteLength(JSON.stringify(message));
}
