import { parseRetryAfter, type ProviderOutcome } from './push-message.ts';

/**
 * One APNs answer as the client saw it. Apple's reasons and statuses:
 * https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
 */
export interface ApnsRawResult {
  /** HTTP status; absent when no answer came (connection error, timeout). */
  status?: number | undefined;
  /** `reason` from the JSON error body. */
  reason?: string | undefined;
  /** 410 only: ms since epoch when APNs confirmed the token was no longer valid for the topic. */
  timestamp?: number | string | undefined;
  /** `Retry-After`, should a transport ever pass it on (Apple does not document one; see apns-client.ts). */
  retryAfter?: string | undefined;
  /** The transport's error text when there is no reason (node-apn: `apn write timeout`, `ExpiredProviderToken`, …). */
  errorMessage?: string | undefined;
  apnsId?: string | undefined;
}

/** node-apn 8.1's per-recipient result (`sent[i]` or `failed[i]` of `Provider.send`). */
export interface NodeApnResult {
  device: string;
  'apns-id'?: string;
  status?: number;
  response?: { reason: string; timestamp?: string | number };
  error?: { message: string };
}

/**
 * node-apn keeps the body's reason for most errors, but on 500 and on 403
 * ExpiredProviderToken it keeps only an `error` whose message is
 * `Error 500, stream ended unexpectedly` / `ExpiredProviderToken`.
 */
export function apnsRawFromNodeApn(result: NodeApnResult | undefined, sent: boolean): ApnsRawResult {
  if (sent) return { status: 200, apnsId: result?.['apns-id'] };
  return {
    status: result?.status,
    reason: result?.response?.reason,
    timestamp: result?.response?.timestamp,
    errorMessage: result?.error?.message,
    apnsId: result?.['apns-id'],
  };
}

/**
 * The device token is dead: 400 BadDeviceToken (malformed, or for the other
 * environment), 410 Unregistered (the app was removed or the token revoked),
 * 410 ExpiredToken. Deactivation of a 410 still checks its timestamp against
 * the device's last registration (ARCHITECTURE.md, device status transitions).
 * Caveat: Apple also answers BadDeviceToken when a sandbox token is sent to
 * production, so a project with the wrong `sandbox` flag loses its devices.
 */
const TOKEN_INVALID = new Set(['BadDeviceToken', 'Unregistered', 'ExpiredToken']);

/**
 * Worth another try: throttling (429), Apple's server trouble (500, 503
 * ServiceUnavailable / Shutdown), an idle connection, and ExpiredProviderToken
 * (node-apn mints a new JWT when it sees it, so the next attempt carries a fresh one).
 */
const RETRYABLE = new Set([
  'TooManyRequests',
  'TooManyProviderTokenUpdates',
  'InternalServerError',
  'ServiceUnavailable',
  'Shutdown',
  'IdleTimeout',
  'ExpiredProviderToken',
]);

/**
 * Everything else Apple names is a problem with the request or the
 * credentials, not with the device. DeviceTokenNotForTopic is here on
 * purpose: it also appears when a project's bundle id is misconfigured, and
 * then deactivating would wipe every iOS device of the project.
 */
const KNOWN_REASONS = new Set([
  ...TOKEN_INVALID,
  ...RETRYABLE,
  'BadCollapseId',
  'BadExpirationDate',
  'BadMessageId',
  'BadPriority',
  'BadTopic',
  'DeviceTokenNotForTopic',
  'DuplicateHeaders',
  'InvalidPushType',
  'MissingDeviceToken',
  'MissingTopic',
  'PayloadEmpty',
  'TopicDisallowed',
  'BadCertificate',
  'BadCertificateEnvironment',
  'Forbidden',
  'InvalidProviderToken',
  'MissingProviderToken',
  'UnrelatedKeyIdInToken',
  'BadEnvironmentKeyInToken',
  'BadPath',
  'MethodNotAllowed',
  'PayloadTooLarge',
]);

/** Apple's reason for a status when the body did not survive the transport (node-apn drops it on 500). */
const REASON_BY_STATUS: Record<number, string> = { 429: 'TooManyRequests', 500: 'InternalServerError', 503: 'ServiceUnavailable' };

function reasonOf(raw: ApnsRawResult): string {
  if (raw.reason !== undefined && raw.reason !== '') return raw.reason;
  if (raw.errorMessage !== undefined && KNOWN_REASONS.has(raw.errorMessage)) return raw.errorMessage;
  if (raw.status !== undefined) return REASON_BY_STATUS[raw.status] ?? `HTTP ${raw.status}`;
  return raw.errorMessage !== undefined && /timeout/i.test(raw.errorMessage) ? 'RequestTimeout' : 'ConnectionError';
}

function isoTimestamp(value: number | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function apnsOutcome(raw: ApnsRawResult, now: number = Date.now()): ProviderOutcome {
  if (raw.status === 200) return { outcome: 'delivered', ...(raw.apnsId === undefined ? {} : { providerMessageId: raw.apnsId }) };
  const reason = reasonOf(raw);
  if (TOKEN_INVALID.has(reason)) {
    const providerTimestamp = raw.status === 410 ? isoTimestamp(raw.timestamp) : undefined;
    return { outcome: 'token-invalid', reason, ...(providerTimestamp === undefined ? {} : { providerTimestamp }) };
  }
  const noAnswer = raw.status === undefined;
  const serverSide = raw.status !== undefined && (raw.status >= 500 || raw.status === 429);
  if (RETRYABLE.has(reason) || noAnswer || (serverSide && !KNOWN_REASONS.has(reason))) {
    const retryAfterMs = parseRetryAfter(raw.retryAfter, now);
    return { outcome: 'retryable', reason, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  return { outcome: 'rejected', reason };
}
