import { createECDH, createPublicKey, randomBytes, type ECDH } from 'node:crypto';
import { createRequire } from 'node:module';
import { decodeJwt, verifyJwtSignature } from './jwt.ts';
import type { TokenRuleBase } from './rules.ts';

const require = createRequire(import.meta.url);
const ece = require('http_ece') as { decrypt(body: Buffer, params: Record<string, unknown>): Buffer };

/** An injected answer for subscriptions whose id starts with `prefix` (404/410 gone, 413, 429 with Retry-After, 5xx). */
export interface WebPushRule extends TokenRuleBase {
  status: number;
}

/** A subscription the fake issued, with what only the browser holds: the ECDH private key and the auth secret. */
export interface FakeSubscriptionState {
  id: string;
  ecdh: ECDH;
  auth: Buffer;
  /** The VAPID public key it was made with (base64url); pushes must be signed with it. Unset: any key. */
  applicationServerKey?: string | undefined;
  /** Unsubscribed: the push service answers 410 from then on. */
  gone: boolean;
}

export const DAY_S = 24 * 3600;

/** The most a push service takes (RFC 8030 §7.2 requires at least 4096 bytes of body). */
export const WEBPUSH_MAX_BODY_BYTES = 4096;

function es256Key(publicKey: string) {
  const point = Buffer.from(publicKey, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return undefined;
  try {
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  } catch {
    return undefined;
  }
}

export type VapidVerdict = { ok: true; key: string; subject: string } | { ok: false; status: 401 | 403; reason: string };

/**
 * RFC 8292 as a push service checks it: `Authorization: vapid t=<JWT>, k=<key>`,
 * the JWT ES256-signed by that key, `aud` the push service's origin, `exp`
 * in the future and at most 24 hours ahead, `sub` a mailto: or https: URI,
 * and `k` the key the subscription was made with.
 */
export function checkVapid(authorization: string | undefined, expected: { origin: string; applicationServerKey?: string | undefined; nowS: number }): VapidVerdict {
  const match = authorization === undefined ? null : /^vapid\s+t=([^,\s]+)\s*,\s*k=([A-Za-z0-9_-]+)\s*$/.exec(authorization);
  if (match === null) return { ok: false, status: 401, reason: 'MissingVapid' };
  const [, token, k] = match as unknown as [string, string, string];
  const key = es256Key(k);
  const jwt = decodeJwt(token);
  if (key === undefined || jwt === undefined || !verifyJwtSignature(jwt, 'ES256', key)) return { ok: false, status: 401, reason: 'BadVapidSignature' };
  const { aud, exp, sub } = jwt.payload;
  if (aud !== expected.origin) return { ok: false, status: 401, reason: 'BadVapidAudience' };
  if (typeof exp !== 'number' || exp <= expected.nowS || exp > expected.nowS + DAY_S) return { ok: false, status: 401, reason: 'BadVapidExpiry' };
  if (typeof sub !== 'string' || !/^(mailto:.+@.+|https:\/\/.+)$/.test(sub)) return { ok: false, status: 401, reason: 'BadVapidSubject' };
  if (expected.applicationServerKey !== undefined && expected.applicationServerKey !== k) return { ok: false, status: 403, reason: 'VapidKeyMismatch' };
  return { ok: true, key: k, subject: sub };
}

/** Decrypts a message as the browser does (RFC 8291 with the subscription's private key and auth secret); undefined when it cannot. */
export function decryptMessage(body: Buffer, subscription: Pick<FakeSubscriptionState, 'ecdh' | 'auth'>): string | undefined {
  try {
    return ece.decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth.toString('base64url') }).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A new browser-side key pair and auth secret. */
export function newSubscriptionKeys(): { ecdh: ECDH; auth: Buffer } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16) };
}
