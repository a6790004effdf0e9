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
  /** Node's code for an error raised on this side (`ERR_HTTP2_STREAM_ERROR`, …), found on the error or its causes. */
  errorCode?: string | undefined;
  apnsId?: string | undefined;
}

/** node-apn 8.1's per-recipient result (`sent[i]` or `failed[i]` of `Provider.send`). */
export interface NodeApnResult {
  device: string;
  'apns-id'?: string;
  status?: number;
  response?: { reason: string; timestamp?: string | number };
  error?: { message: string };
  /** Set when node-apn passes on an error thrown by Node itself (spread onto its result). */
  code?: string;
}

/** The first Node error code on an error or its causes (node-apn wraps Node's errors in VError: `jse_cause`). */
function errorCodeOf(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { code, jse_cause: wrapped, cause } = error as { code?: unknown; jse_cause?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  return errorCodeOf(wrapped, depth + 1) ?? (typeof cause === 'function' ? undefined : errorCodeOf(cause, depth + 1));
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
    errorCode: result?.code ?? errorCodeOf(result?.error),
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

/**
 * Node refused the request before sending it: a header value it will not
 * encode (ERR_HTTP2_INVALID_HEADER_VALUE, ERR_INVALID_CHAR), or a stream
 * closed with PROTOCOL_ERROR — what nghttp2 does locally to a `:path` with a
 * space, tab, CR, LF, NUL or DEL, and what a peer answers to a malformed
 * request. The same request fails the same way every time: final, never
 * retried (retrying it held a sender for 5 attempts of 30 s).
 */
const LOCAL_REFUSALS = new Set(['ERR_HTTP2_INVALID_HEADER_VALUE', 'ERR_HTTP2_INVALID_PSEUDOHEADER', 'ERR_HTTP2_HEADER_SINGLE_VALUE', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN']);

/** The reason a request Node (or the peer's HTTP/2 layer) refused as malformed carries. */
export const INVALID_REQUEST = 'InvalidRequest';

function refusedAsMalformed(raw: ApnsRawResult): boolean {
  if (raw.status !== undefined || raw.errorCode === undefined) return false;
  if (LOCAL_REFUSALS.has(raw.errorCode)) return true;
  return raw.errorCode === 'ERR_HTTP2_STREAM_ERROR' && /PROTOCOL_ERROR/.test(raw.errorMessage ?? '');
}

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
  if (refusedAsMalformed(raw)) return { outcome: 'rejected', reason: INVALID_REQUEST };
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
