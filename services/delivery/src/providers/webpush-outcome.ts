import { parseRetryAfter, type ProviderOutcome } from './push-message.ts';

/**
 * One push service's answer to one Web Push message, as the client saw it.
 * RFC 8030 §5 (201 Created with a Location), §7.3 (404/410 for an expired
 * subscription), §8.4 (413), RFC 8292 §4 (401/403 for a refused VAPID
 * token), RFC 6585 (429 with Retry-After).
 */
export interface WebPushRawResult {
  /** HTTP status; absent when no answer came (connection error, timeout). */
  status?: number | undefined;
  retryAfter?: string | undefined;
  /** `Location` of the created push message resource. */
  location?: string | undefined;
  /** Node's error code or message when no answer came (`ECONNRESET`, `ETIMEDOUT`, …). */
  error?: string | undefined;
}

/**
 * Reasons Herald reports (the push services answer with bare statuses and
 * bodies of their own making, so Herald names the class, not the text).
 */
export const WEBPUSH_REASONS = {
  gone: 'SubscriptionGone',
  tooLarge: 'PayloadTooLarge',
  vapid: 'VapidRejected',
  throttled: 'TooManyRequests',
  unavailable: 'ServiceUnavailable',
  network: 'NetworkError',
} as const;

/**
 * Maps a push service's answer (pure): 2xx delivered; 404/410 the
 * subscription is gone (the device is deactivated); 413 rejected; 400, 401
 * and 403 rejected as a VAPID refusal (the project's key or subject is
 * wrong: every push of the project would fail the same way); 429 and 5xx
 * retryable (429's Retry-After throttles the push service's origin, not the
 * project: webpush-client.ts); no answer retryable. Any other status is
 * rejected under its own number.
 */
export function webPushOutcome(raw: WebPushRawResult, now: number = Date.now()): ProviderOutcome {
  const { status } = raw;
  if (status === undefined) return { outcome: 'retryable', reason: raw.error === undefined ? WEBPUSH_REASONS.network : `${WEBPUSH_REASONS.network}: ${raw.error}` };
  if (status >= 200 && status < 300) return { outcome: 'delivered', ...(raw.location === undefined ? {} : { providerMessageId: raw.location }) };
  if (status === 404 || status === 410) return { outcome: 'token-invalid', reason: WEBPUSH_REASONS.gone };
  if (status === 413) return { outcome: 'rejected', reason: WEBPUSH_REASONS.tooLarge };
  if (status === 400 || status === 401 || status === 403) return { outcome: 'rejected', reason: WEBPUSH_REASONS.vapid };
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(raw.retryAfter, now);
    return { outcome: 'retryable', reason: status === 429 ? WEBPUSH_REASONS.throttled : WEBPUSH_REASONS.unavailable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  return { outcome: 'rejected', reason: `HTTP ${status}` };
}
