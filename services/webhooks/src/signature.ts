import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers every webhook request carries (lower-case, as node sends them). */
export const WEBHOOK_HEADERS = {
  /** Unix seconds when the request was signed. */
  timestamp: 'herald-timestamp',
  /** `v1=<hex>` per valid secret, comma-separated: two during a secret rotation. */
  signature: 'herald-signature',
  /** The delivery's id: the event's id for one event, a digest of the ids for a batch; the same on every retry. */
  delivery: 'herald-delivery-id',
  webhook: 'herald-webhook-id',
} as const;

/** HMAC-SHA256 over `<timestamp>.<body>`, hex: what a receiver recomputes with its secret. */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The `Herald-Signature` value: one `v1=` entry per secret still valid (the new one first during a rotation). */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`).join(', ');
}

/**
 * The receiver's check (documented in docs/webhooks.md): some `v1=` entry
 * matches the HMAC under `secret`, and the timestamp is within `toleranceS`
 * of `nowS` (a replayed capture of an old request is refused).
 */
export function verifySignature(options: { secret: string; timestamp: string; signature: string; body: string; nowS: number; toleranceS?: number }): boolean {
  const timestamp = Number(options.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(options.nowS - timestamp) > (options.toleranceS ?? 300)) return false;
  const expected = Buffer.from(signPayload(options.secret, timestamp, options.body), 'hex');
  return options.signature.split(',').some((entry) => {
    const [scheme, value] = entry.trim().split('=');
    if (scheme !== 'v1' || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, 'hex'), expected);
  });
}
