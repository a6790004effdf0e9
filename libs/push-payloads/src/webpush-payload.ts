import { mergeOverride } from './merge-override.ts';
import { isSilent, utf8Bytes, type PushMessage } from './push-message.ts';

/**
 * The largest plaintext one Web Push message carries. Push services take at
 * least 4096 bytes of encrypted body (RFC 8030 §7.2); RFC 8291's single
 * aes128gcm record spends 86 bytes on its header (salt 16, record size 4,
 * key id length 1, the server's public key 65), 16 on the AEAD tag and 1 on
 * the padding delimiter: 4096 − 103 = 3993.
 */
export const WEB_PUSH_PLAINTEXT_LIMIT_BYTES = 3993;

/** Declarative Web Push's magic number: a browser that knows the format shows `notification` without waking a service worker. */
export const DECLARATIVE_WEB_PUSH = 8030;

export interface WebPushAction {
  action: string;
  title: string;
  navigate?: string;
}

/**
 * The plaintext Herald encrypts to a subscription: the Declarative Web Push
 * JSON (https://www.w3.org/TR/push-api/#declarative-push-message), with
 * `data` for a service worker that handles `push` events itself (browsers
 * without declarative support, or an app that wants to).
 */
export interface WebPushPayload {
  web_push: typeof DECLARATIVE_WEB_PUSH;
  /** Absent for a silent push: the service worker gets the data alone. */
  notification?: {
    title: string;
    body: string;
    /** The page a click opens: `link_to`. Declarative Web Push needs it; without it, the browser hands the message to the service worker. */
    navigate?: string;
    lang?: string;
    dir?: 'auto' | 'ltr' | 'rtl';
    image?: string;
    tag?: string;
    app_badge?: number;
    actions?: WebPushAction[];
  };
  data: Record<string, string>;
  [key: string]: unknown;
}

/**
 * Builds the plaintext of a web push from the provider-neutral message (pure).
 * `lang`, `dir` and `actions` have no provider-neutral field: they come from
 * the message's raw `webpush` object, merged last as `apns` and `fcm` are.
 */
export function buildWebPushPayload(message: PushMessage): WebPushPayload {
  const tag = message.thread_id ?? message.group;
  const built: WebPushPayload = {
    web_push: DECLARATIVE_WEB_PUSH,
    ...(isSilent(message)
      ? {}
      : {
          notification: {
            title: message.title,
            body: message.body,
            ...(message.link_to === undefined ? {} : { navigate: message.link_to }),
            ...(message.image === undefined ? {} : { image: message.image }),
            ...(tag === undefined ? {} : { tag }),
            ...(message.badge === undefined ? {} : { app_badge: message.badge }),
          },
        }),
    data: {
      ...message.data,
      notification_id: message.notification_id,
      project_id: message.project_id,
      ...(message.link_to === undefined ? {} : { link_to: message.link_to }),
    },
  };
  return mergeOverride(built, message.webpush);
}

/** The plaintext as sent: UTF-8 JSON. */
export function webPushPlaintext(payload: WebPushPayload): string {
  return JSON.stringify(payload);
}

export function webPushPayloadBytes(payload: WebPushPayload): number {
  return utf8Bytes(webPushPlaintext(payload));
}

/**
 * The Web Push headers from the push options (RFC 8030 §5.2–5.4): `TTL` in
 * seconds (4 weeks when the notification gives none, as browsers' push
 * services keep at most about that), `Urgency` from `priority`, `Topic` from
 * `collapse_id` (`topicOf` turns it into a valid Topic: the sender hashes
 * one that is not, where node:crypto is at hand; this module also runs in
 * the console).
 */
export const WEB_PUSH_DEFAULT_TTL_SECONDS = 4 * 7 * 24 * 3600;

export function webPushHeaders(
  message: Pick<PushMessage, 'ttl' | 'priority' | 'collapse_id'>,
  topicOf: (collapseId: string) => string | undefined = webPushTopic,
): Record<string, string> {
  const topic = message.collapse_id === undefined ? undefined : topicOf(message.collapse_id);
  return {
    TTL: String(message.ttl ?? WEB_PUSH_DEFAULT_TTL_SECONDS),
    ...(message.priority === undefined ? {} : { Urgency: message.priority === 'high' ? 'high' : 'normal' }),
    ...(topic === undefined ? {} : { Topic: topic }),
  };
}

const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/** RFC 8030 §5.4: a Topic is at most 32 characters of the URL- and filename-safe base64 alphabet; anything else is not sent. */
export function webPushTopic(collapseId: string): string | undefined {
  return TOPIC.test(collapseId) ? collapseId : undefined;
}
