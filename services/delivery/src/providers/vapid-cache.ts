import webpush from 'web-push';

/** The key a VAPID header is signed with (libs/admin VapidKey, without its creation time). */
export interface VapidSigningKey {
  id: string;
  public_key: string;
  private_key: string;
}

/** A token lives 12 h (RFC 8292 allows at most 24 h); it is replaced 10 minutes before it expires. */
export const VAPID_TOKEN_LIFETIME_S = 12 * 3600;
export const VAPID_REFRESH_MARGIN_S = 600;
/** Headers kept at most: one per (push service origin, key); a few origins per key in practice. */
const MAX_ENTRIES = 10_000;

/**
 * `Authorization: vapid t=<JWT>, k=<key>` per (push service origin, key),
 * signed once and reused until shortly before it expires: web-push's
 * sendNotification signs an ES256 JWT for every message, which would be
 * the largest CPU cost of a push after the encryption itself.
 */
export class VapidHeaderCache {
  readonly #entries = new Map<string, { header: string; refreshAt: number }>();
  readonly #now: () => number;
  /** Signatures made (for tests and metrics). */
  signed = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  header(origin: string, subject: string, key: VapidSigningKey): string {
    const name = `${origin}\u0000${key.id}\u0000${subject}`;
    const nowS = Math.floor(this.#now() / 1000);
    const cached = this.#entries.get(name);
    if (cached !== undefined && nowS < cached.refreshAt) return cached.header;
    const exp = nowS + VAPID_TOKEN_LIFETIME_S;
    const header = webpush.getVapidHeaders(origin, subject, key.public_key, key.private_key, 'aes128gcm', exp).Authorization;
    this.signed += 1;
    this.#entries.delete(name);
    this.#entries.set(name, { header, refreshAt: exp - VAPID_REFRESH_MARGIN_S });
    if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    return header;
  }
}
