import { ECDH } from 'node:crypto';
import type { DeviceRegisteredV2 } from '@herald/events';
import { webhookUrlProblems } from './webhook-request.ts';

/** A browser's `PushSubscription.toJSON()`, as the registration body carries it. */
export interface WebSubscriptionInput {
  endpoint: string;
  expirationTime?: number | null | undefined;
  keys: { p256dh: string; auth: string };
}

export type StoredSubscription = NonNullable<DeviceRegisteredV2['data']['subscription']>;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** base64url (padding tolerated: some browsers and libraries add it) to bytes; undefined when it is not base64url. */
function base64url(value: string): Buffer | undefined {
  return BASE64URL.test(value) ? Buffer.from(value.replace(/=+$/, ''), 'base64url') : undefined;
}

/**
 * Whether `bytes` is an uncompressed P-256 point on the curve (RFC 8291 §3.1:
 * the browser's ECDH share). A point off the curve would make every
 * encryption to it fail (or, worse, leak key bits in an invalid-curve
 * attack), so it is refused at registration.
 */
function isUncompressedP256Point(bytes: Buffer): boolean {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    // OpenSSL decodes the point and checks it lies on the curve.
    ECDH.convertKey(bytes, 'prime256v1', undefined, undefined, 'uncompressed');
    return true;
  } catch {
    return false;
  }
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Whether an endpoint's host is one of the push services (`hosts`, each with
 * its subdomains; `*` any), or loopback in local mode. Browsers only ever
 * hand out endpoints of their vendor's push service: an endpoint elsewhere
 * was made up, and would have Herald post every campaign to that host.
 */
export function isPushServiceHost(hostname: string, hosts: readonly string[] | undefined, local: boolean): boolean {
  if (local && (LOOPBACK_HOSTS.includes(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname))) return true;
  if (hosts === undefined || hosts.includes('*')) return true;
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/**
 * Problems with a Web Push subscription (pure), one sentence each naming the
 * field: the endpoint under the webhook URL rules (https to a named host;
 * with `local`, http and loopback too) and on a push service's host
 * (`hosts`: WEBPUSH_ENDPOINT_HOSTS), `keys.p256dh` an uncompressed P-256
 * point, `keys.auth` 16 bytes, both base64url.
 */
export function webSubscriptionProblems(subscription: WebSubscriptionInput, local: boolean, hosts?: readonly string[]): string[] {
  const problems = webhookUrlProblems(subscription.endpoint, local, 'subscription.endpoint');
  if (problems.length === 0 && !isPushServiceHost(new URL(subscription.endpoint).hostname, hosts, local)) {
    problems.push(`subscription.endpoint must be on a push service's host (${(hosts ?? []).join(', ')}, or their subdomains: WEBPUSH_ENDPOINT_HOSTS)`);
  }
  const p256dh = base64url(subscription.keys.p256dh);
  if (p256dh === undefined || !isUncompressedP256Point(p256dh)) {
    problems.push('subscription.keys.p256dh must be base64url of an uncompressed P-256 public key (65 bytes starting 0x04, on the curve)');
  }
  const auth = base64url(subscription.keys.auth);
  if (auth?.length !== 16) problems.push('subscription.keys.auth must be base64url of 16 bytes');
  return problems;
}

/** The subscription as the event keeps it: keys in canonical base64url (no padding), and the VAPID key it was made with. */
export function storedSubscription(subscription: WebSubscriptionInput, keyId: string): StoredSubscription {
  const expiration = subscription.expirationTime;
  return {
    endpoint: subscription.endpoint,
    p256dh: base64url(subscription.keys.p256dh)!.toString('base64url'),
    auth: base64url(subscription.keys.auth)!.toString('base64url'),
    ...(expiration === undefined ? {} : { expiration_time: expiration === null ? null : Math.round(expiration) }),
    key_id: keyId,
  };
}
