import { isSilent, utf8Bytes, type PushMessage } from './push-message.ts';

/**
 * Huawei Push Kit (HMS Core) server API v1, `POST /v1/<app id>/messages:send`
 * (developer.huawei.com → Push Kit → Server APIs → Sending Messages).
 * Herald sends HMS to Android devices with Huawei Mobile Services, so every
 * option goes to `message.android`. Field names are Huawei's wire names.
 */
export interface HmsAndroidNotification {
  title: string;
  body: string;
  /** Required by Push Kit for a notification: 3 opens the app, 1 starts the activity with this intent action. */
  click_action: { type: 1; action: string } | { type: 3 };
  image?: string;
  /** Notifications with one tag replace each other on the device. */
  tag?: string;
  /** Notifications with one group are shown together. */
  group?: string;
  sound?: string;
  default_sound?: boolean;
}

export interface HmsMessage {
  /** Push Kit's `data` is a string: the app reads it back as JSON. */
  data: string;
  android: {
    /** HIGH or NORMAL (Push Kit's `urgency`). */
    urgency?: 'HIGH' | 'NORMAL';
    /** Seconds, as Push Kit writes durations: "3600s". */
    ttl?: string;
    /** -1 to 100: Push Kit's only collapse mode for offline messages (it takes integers only). */
    collapse_key?: number;
    /** Absent for a silent (data-only) push. */
    notification?: HmsAndroidNotification;
  };
}

export interface HmsSendBody {
  validate_only: boolean;
  message: HmsMessage & { token: string[] };
}

/** Push Kit takes at most 1,000 tokens in one multicast message. */
export const HMS_MAX_TOKENS = 1000;
/** Push Kit keeps an offline message at most 15 days (`ttl` "1296000s"). */
export const HMS_MAX_TTL_SECONDS = 1_296_000;
/** Push Kit's limit for a message (data messages: 4 KB). */
export const HMS_MAX_PAYLOAD_BYTES = 4096;

/** A collapse_id Push Kit can take as `collapse_key`: an integer from -1 to 100; anything else collapses by `tag` only. */
function collapseKey(collapseId: string | undefined): number | undefined {
  if (collapseId === undefined || !/^-?\d{1,3}$/.test(collapseId)) return undefined;
  const value = Number(collapseId);
  return value >= -1 && value <= 100 ? value : undefined;
}

/** The message without its tokens: built once per batch, the client adds `token` per chunk of up to 1,000. */
export function buildHmsMessage(message: PushMessage): HmsMessage {
  const data = JSON.stringify({
    ...message.data,
    notification_id: message.notification_id,
    project_id: message.project_id,
    ...(message.link_to === undefined ? {} : { link_to: message.link_to }),
  });
  const tag = message.collapse_id;
  const group = message.thread_id ?? message.group;
  const sound = message.sound === undefined ? {} : message.sound === 'default' ? { default_sound: true } : { sound: message.sound, default_sound: false };
  const notification: HmsAndroidNotification | undefined = isSilent(message)
    ? undefined
    : {
        title: message.title,
        body: message.body,
        click_action: message.category === undefined ? { type: 3 } : { type: 1, action: message.category },
        ...(message.image === undefined ? {} : { image: message.image }),
        ...(tag === undefined ? {} : { tag }),
        ...(group === undefined ? {} : { group }),
        ...sound,
      };
  const key = collapseKey(message.collapse_id);
  return {
    data,
    android: {
      ...(message.priority === undefined ? {} : { urgency: message.priority === 'high' ? 'HIGH' : 'NORMAL' }),
      ...(message.ttl === undefined ? {} : { ttl: `${Math.min(message.ttl, HMS_MAX_TTL_SECONDS)}s` }),
      ...(key === undefined ? {} : { collapse_key: key }),
      ...(notification === undefined ? {} : { notification }),
    },
  };
}

/** The request body for one multicast chunk; a ValidationError is the caller's concern, this only refuses an impossible chunk. */
export function buildHmsSendBody(message: HmsMessage, tokens: readonly string[]): HmsSendBody {
  if (tokens.length === 0 || tokens.length > HMS_MAX_TOKENS) throw new RangeError(`an HMS message carries 1 to ${HMS_MAX_TOKENS} tokens (got ${tokens.length})`);
  return { validate_only: false, message: { ...message, token: [...tokens] } };
}

/** The JSON of the message without tokens: an upper bound of what Push Kit counts against its limit (the fake counts the same). */
export function hmsPayloadBytes(message: HmsMessage): number {
  return utf8Bytes(JSON.stringify(message));
}

/**
 * HMS push tokens are opaque strings the app gets from `HmsInstanceId.getToken`;
 * those seen are 100 to 200 characters of letters, digits, `-`, `_`, `:` and
 * `.` (Huawei documents no format). 32 to 512 refuses a typo or a payload
 * posing as a token while leaving room for growth.
 */
export const HMS_TOKEN_MIN = 32;
export const HMS_TOKEN_MAX = 512;
const HMS_ALPHABET = /^[A-Za-z0-9_:.-]+$/;

/** Why Push Kit can never accept this token, as a sentence naming the field, or undefined when it may. */
export function hmsTokenProblem(token: string): string | undefined {
  if (!HMS_ALPHABET.test(token)) return 'token must be an HMS push token: letters, digits, "-", "_", ":" and "." only';
  if (token.length < HMS_TOKEN_MIN || token.length > HMS_TOKEN_MAX) return `token must be an HMS push token of ${HMS_TOKEN_MIN} to ${HMS_TOKEN_MAX} characters (it has ${token.length})`;
  return undefined;
}
