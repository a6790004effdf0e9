import { createHash, timingSafeEqual } from 'node:crypto';

/** How many Live Activity tokens one device keeps: a few attribute types' push-to-start tokens and its running activities'. */
export const LIVE_ACTIVITY_TOKENS_PER_DEVICE = 32;

export type LiveActivityTokenKind = 'push_to_start' | 'update';

/** Compares secrets without leaking where they differ (hashing first evens out lengths). */
function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export interface AttachClaim {
  /** The project of the caller's bearer key, when it sent one. */
  bearerProjectId: string | undefined;
  /** The `device_token` the caller offers as proof of being the device. */
  deviceToken: string | undefined;
  /** The device as stored, or undefined when no device has this id. */
  device: { project_id: string; token: string } | undefined;
}

/**
 * May this caller attach a token to the device? Pure. The app's server
 * proves itself with the project's bearer key; the app itself with the
 * device's current push token, which only that device (and the project)
 * holds. An unknown device and a wrong token answer alike, so a stranger
 * learns nothing about which device ids exist.
 */
export function attachRefusal(claim: AttachClaim): 'not_found' | 'forbidden' | undefined {
  if (claim.bearerProjectId !== undefined) return claim.device?.project_id === claim.bearerProjectId ? undefined : 'not_found';
  if (claim.device === undefined || claim.deviceToken === undefined) return 'forbidden';
  return sameSecret(claim.deviceToken, claim.device.token) ? undefined : 'forbidden';
}

/**
 * The id of a token's slot: a push-to-start token per attributes type, an
 * update token per activity. A rotated token (ActivityKit hands out new ones)
 * lands in the same slot and replaces the old one. A v5-style UUID so it
 * reads like Herald's other ids.
 */
export function liveActivityTokenId(deviceId: string, kind: LiveActivityTokenKind, key: string): string {
  const hex = createHash('sha256').update(`${deviceId}\u0000${kind}\u0000${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

export interface AttachInput {
  kind: LiveActivityTokenKind;
  activity_id?: string | undefined;
  attributes_type?: string | undefined;
}

/** What the body lacks for its kind, naming the field (400), or undefined. */
export function attachInputProblem(input: AttachInput): string | undefined {
  if (input.kind === 'update' && input.activity_id === undefined) return 'activity_id: required for an update token';
  if (input.kind === 'push_to_start' && input.activity_id !== undefined) return 'activity_id: only an update token names an activity';
  return undefined;
}

/** The slot key of a token: its activity for an update token, its attributes type for a push-to-start token. */
export function slotKey(input: AttachInput): string {
  return input.kind === 'update' ? (input.activity_id ?? '') : (input.attributes_type ?? '');
}
