import { hmsTokenProblem } from './hms-payload.ts';

/** The platforms a device registers for with a token, as the API names them (a web device's token is its subscription's endpoint). */
export type TokenPlatform = 'ios' | 'android' | 'huawei';

/**
 * APNs device tokens are the hex form of the opaque bytes the app receives in
 * `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`, and the
 * token goes into the request path `/3/device/<token>`
 * (https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns).
 * Today they are 32 bytes (64 hex characters), but Apple says they are of
 * variable length and must not be hard-coded
 * (https://developer.apple.com/documentation/usernotifications/registering-your-app-with-apns):
 * so any even number of hex digits from 64 to 200 (32 to 100 bytes).
 * Anything else (a space, a control character, a letter past `f`) Apple
 * never accepts, and some of it (CR, LF, NUL, DEL, space) Node's HTTP/2 client
 * refuses before a byte is sent.
 */
export const APNS_TOKEN_HEX_MIN = 64;
export const APNS_TOKEN_HEX_MAX = 200;

/**
 * FCM registration tokens are URL-safe: an instance id, `:`, and a base64url
 * body (letters, digits, `-`, `_`)
 * (https://firebase.google.com/docs/cloud-messaging/manage-tokens). Google
 * documents no length; tokens seen are 140 to 250 characters, so 1,024
 * leaves room for growth while refusing a payload posing as a token.
 */
export const FCM_TOKEN_MAX = 1024;

const HEX = /^[0-9a-fA-F]+$/;
const FCM_ALPHABET = /^[A-Za-z0-9_:-]+$/;

/**
 * Why a provider can never accept this token for this platform, as one
 * sentence naming the field (`token …`), or undefined when it may. Used at
 * registration (a 400) and before a send (a token stored before the rule
 * ends `invalid`, its device deactivated).
 */
export function deviceTokenProblem(platform: TokenPlatform, token: string): string | undefined {
  if (platform === 'ios') {
    if (!HEX.test(token)) return 'token must be an APNs device token: hexadecimal digits only (0-9, a-f)';
    if (token.length % 2 !== 0 || token.length < APNS_TOKEN_HEX_MIN || token.length > APNS_TOKEN_HEX_MAX) {
      return `token must be an APNs device token: an even number of hex digits from ${APNS_TOKEN_HEX_MIN} to ${APNS_TOKEN_HEX_MAX} (it has ${token.length})`;
    }
    return undefined;
  }
  if (platform === 'huawei') return hmsTokenProblem(token);
  if (!FCM_ALPHABET.test(token)) return 'token must be an FCM registration token: letters, digits, "-", "_" and ":" only';
  if (token.length > FCM_TOKEN_MAX) return `token must be an FCM registration token of at most ${FCM_TOKEN_MAX} characters (it has ${token.length})`;
  return undefined;
}

/** The provider's platform of a delivery batch. */
export const TOKEN_PLATFORM_OF = { apns: 'ios', fcm: 'android', hms: 'huawei' } as const satisfies Record<string, TokenPlatform>;
