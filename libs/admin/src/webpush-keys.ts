import { createECDH, createHash } from 'node:crypto';
import { ValidationError } from '@herald/errors';

/**
 * A project's VAPID keys (RFC 8292): every key it has generated, the last
 * the current one. Rotation adds a key and keeps the old ones, because a
 * browser's subscription is bound to the application server key it was made
 * with: pushes to it must be signed with that key for as long as it lives
 * (each web device remembers its key id).
 */
export interface WebPushCredential {
  /** `sub` of every VAPID JWT: a `mailto:` or `https:` contact the push service may use (RFC 8292 §2.1). */
  subject: string;
  keys: VapidKey[];
}

export interface VapidKey {
  id: string;
  /** Uncompressed P-256 point, base64url: the browser's `applicationServerKey`. */
  public_key: string;
  /** The 32-byte private scalar, base64url. */
  private_key: string;
  created_at: string;
}

/** What may be shown without decrypting: the subject and the public keys (public by nature: browsers are given them). */
export interface WebPushSummary {
  subject: string;
  current_key_id: string;
  keys: Array<Pick<VapidKey, 'id' | 'public_key' | 'created_at'>>;
}

/** A key's id: the first 16 base64url characters of the SHA-256 of its public key (stable, and says nothing secret). */
export function vapidKeyId(publicKey: string): string {
  return createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('base64url').slice(0, 16);
}

/** A fresh P-256 key pair. */
export function generateVapidKey(now: Date = new Date()): VapidKey {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const publicKey = ecdh.getPublicKey('base64url', 'uncompressed');
  // getPrivateKey drops leading zero bytes: pad to the 32 bytes VAPID libraries expect.
  const privateKey = Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()]).subarray(-32).toString('base64url');
  return { id: vapidKeyId(publicKey), public_key: publicKey, private_key: privateKey, created_at: now.toISOString() };
}

const MAX_SUBJECT = 512;

/** RFC 8292 §2.1: `sub` is a mailto: or https: URI. */
export function vapidSubjectProblem(subject: string): string | undefined {
  if (subject.length > MAX_SUBJECT) return `subject must be at most ${MAX_SUBJECT} characters`;
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    return 'subject must be a mailto: or https: URI (e.g. mailto:push@example.com)';
  }
  if (url.protocol === 'mailto:' && url.pathname.includes('@')) return undefined;
  if (url.protocol === 'https:') return undefined;
  return 'subject must be a mailto: address or an https: URL (RFC 8292: the push service may contact you there)';
}

/**
 * The credential after generating a key (pure but for `key`): a new key
 * becomes current, earlier keys stay for their subscriptions; the subject is
 * replaced when given.
 */
export function withNewVapidKey(existing: WebPushCredential | undefined, subject: string | undefined, key: VapidKey): WebPushCredential {
  const chosen = subject ?? existing?.subject;
  if (chosen === undefined) throw new ValidationError(['subject is required for a project\'s first VAPID key (e.g. --subject mailto:push@example.com)']);
  const problem = vapidSubjectProblem(chosen);
  if (problem !== undefined) throw new ValidationError([problem]);
  return { subject: chosen, keys: [...(existing?.keys ?? []), key] };
}

export function summarizeWebPush(credential: WebPushCredential): WebPushSummary {
  const keys = credential.keys.map(({ id, public_key, created_at }) => ({ id, public_key, created_at }));
  return { subject: credential.subject, current_key_id: keys.at(-1)!.id, keys };
}

/** The current key's public half, as `pushManager.subscribe({ applicationServerKey })` takes it. */
export function currentPublicKey(summary: WebPushSummary): { key_id: string; public_key: string } {
  const current = summary.keys.find((key) => key.id === summary.current_key_id) ?? summary.keys.at(-1)!;
  return { key_id: current.id, public_key: current.public_key };
}

/** The key a subscription was made with (its id from the device), for signing; undefined when the project no longer has it. */
export function vapidKeyFor(credential: WebPushCredential, keyId: string): VapidKey | undefined {
  return credential.keys.find((key) => key.id === keyId);
}

/** Which key a browser used, from the applicationServerKey it reports (or undefined when it is none of the project's). */
export function keyIdOfPublicKey(summary: WebPushSummary, publicKey: string): string | undefined {
  const normalized = Buffer.from(publicKey, 'base64url').toString('base64url');
  return summary.keys.find((key) => key.public_key === normalized)?.id;
}
