/** What Herald pushes, provider-neutral: the content, the push options, and the ids the device echoes to `PUT …/open`. */
export interface PushMessage {
  notification_id: string;
  project_id: string;
  title: string;
  body: string;
  link_to?: string | undefined;
  group?: string | undefined;
  /** Custom key/value pairs for the app (FCM requires string values). */
  data?: Record<string, string> | undefined;
  badge?: number | undefined;
  sound?: string | undefined;
  /** Seconds the provider keeps trying to deliver; 0: now or never. */
  ttl?: number | undefined;
  priority?: 'high' | 'normal' | undefined;
  collapse_id?: string | undefined;
  /** A background (silent) push: wakes the app; shown only if it has a title or body. */
  content_available?: boolean | undefined;
  mutable_content?: boolean | undefined;
  image?: string | undefined;
  category?: string | undefined;
  thread_id?: string | undefined;
  /** Raw objects merged last: onto the APNs JSON body, onto the FCM message. */
  apns?: Record<string, unknown> | undefined;
  fcm?: Record<string, unknown> | undefined;
  /** Raw object merged last onto the Web Push plaintext (Declarative Web Push JSON): `lang`, `dir`, `actions`. */
  webpush?: Record<string, unknown> | undefined;
}

/** Keys Herald itself puts beside the content: custom `data` may not use them. */
export const HERALD_DATA_KEYS = ['notification_id', 'project_id', 'link_to'] as const;

/**
 * Both providers cap a notification's payload at 4 KB:
 * APNs https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
 * ("The maximum size of the payload is 4096 bytes"),
 * FCM https://firebase.google.com/docs/cloud-messaging/concept-options#notifications_and_data_messages
 * ("The maximum payload for both message types is 4096 bytes").
 */
export const PROVIDER_PAYLOAD_LIMIT_BYTES = 4096;

/** A silent push: background only, nothing to show. */
export function isSilent(message: PushMessage): boolean {
  return message.content_available === true && message.title === '' && message.body === '';
}

const encoder = new TextEncoder();

/** UTF-8 length of a string; TextEncoder rather than Buffer so the builders also run in the console (a browser). */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}
