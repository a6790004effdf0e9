import { parseRetryAfter, type ProviderOutcome } from './push-message.ts';

/**
 * One Push Kit answer to a multicast `messages:send`, as the client read it:
 * the HTTP status and the body's `code` / `msg` / `requestId`, or the network
 * error when there was no answer. Result codes: developer.huawei.com → Push
 * Kit → Server APIs → Sending Messages → Result Codes.
 */
export interface HmsRawResult {
  httpStatus?: number | undefined;
  code?: string | undefined;
  /** For 80100000 a JSON string: {"success": n, "failure": n, "illegal_tokens": [...]}. */
  msg?: string | undefined;
  requestId?: string | undefined;
  retryAfter?: string | undefined;
  /** A network error or timeout code; no answer was read. */
  error?: string | undefined;
}

/** What one request came to: an outcome per token (in the order sent), and whether the OAuth token must be refreshed first. */
export interface HmsOutcome {
  /** Push Kit refused the access token (expired or invalid): refresh it and send again once; `outcomes` apply if that fails too. */
  refreshToken: boolean;
  outcomes: ProviderOutcome[];
}

export const HMS_CODES = {
  success: '80000000',
  partialSuccess: '80100000',
  authFailed: '80200001',
  tokenExpired: '80200003',
  internalError: '81000001',
} as const;

/** Codes that refuse the message itself, whatever the tokens: sending it again cannot succeed. Named as receipts show them. */
const REJECTED: Readonly<Record<string, string>> = {
  '80100001': 'InvalidParameters',
  '80100003': 'InvalidMessageStructure',
  '80100004': 'MessageExpired',
  '80100013': 'InvalidCollapseKey',
  '80100016': 'SensitiveContent',
  '80300002': 'NoPermission',
  // Every token refused at once more likely means the app id is not theirs than that every device is gone: not deactivated.
  '80300007': 'AllTokensInvalid',
  '80300008': 'MessageTooLarge',
  '80300010': 'TooManyTokens',
};

const AUTH_REASON: Readonly<Record<string, string>> = { [HMS_CODES.authFailed]: 'OAuthTokenInvalid', [HMS_CODES.tokenExpired]: 'OAuthTokenExpired' };

/** The illegal tokens a partial success lists, or undefined when its msg cannot be read. */
export function illegalTokens(msg: string | undefined): Set<string> | undefined {
  if (msg === undefined) return undefined;
  try {
    const parsed = JSON.parse(msg) as { illegal_tokens?: unknown };
    if (!Array.isArray(parsed.illegal_tokens)) return undefined;
    return new Set(parsed.illegal_tokens.filter((token): token is string => typeof token === 'string'));
  } catch {
    return undefined;
  }
}

const all = (tokens: readonly string[], outcome: ProviderOutcome): ProviderOutcome[] => tokens.map(() => ({ ...outcome }));

/** Maps one answer to an outcome per token sent (pure; `now` reads Retry-After dates). */
export function hmsOutcome(raw: HmsRawResult, tokens: readonly string[], now: number = Date.now()): HmsOutcome {
  const answer = (outcomes: ProviderOutcome[], refreshToken = false): HmsOutcome => ({ refreshToken, outcomes });
  if (raw.error !== undefined || raw.httpStatus === undefined) return answer(all(tokens, { outcome: 'retryable', reason: raw.error ?? 'NoAnswer' }));
  const code = raw.code;
  const delivered: ProviderOutcome = { outcome: 'delivered', ...(raw.requestId === undefined ? {} : { providerMessageId: raw.requestId }) };
  if (code === HMS_CODES.success) return answer(all(tokens, delivered));
  if (code === HMS_CODES.partialSuccess) {
    const illegal = illegalTokens(raw.msg);
    // Which tokens failed is unknown: sending again would repeat the push to the ones that got it, so none is retried.
    if (illegal === undefined) return answer(all(tokens, { outcome: 'rejected', reason: 'PartialSuccessUnreadable' }));
    return answer(tokens.map((token) => (illegal.has(token) ? { outcome: 'token-invalid', reason: 'IllegalToken' } : { ...delivered })));
  }
  if (code !== undefined && AUTH_REASON[code] !== undefined) return answer(all(tokens, { outcome: 'rejected', reason: AUTH_REASON[code] }), true);
  if (code !== undefined && REJECTED[code] !== undefined) return answer(all(tokens, { outcome: 'rejected', reason: REJECTED[code] }));
  const status = raw.httpStatus;
  if (code === HMS_CODES.internalError || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(raw.retryAfter, now);
    const reason = code === HMS_CODES.internalError ? 'InternalError' : status === 429 ? 'TooManyRequests' : `Http${status}`;
    return answer(all(tokens, { outcome: 'retryable', reason, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }));
  }
  if (status === 401) return answer(all(tokens, { outcome: 'rejected', reason: 'OAuthTokenInvalid' }), true);
  return answer(all(tokens, { outcome: 'rejected', reason: code === undefined ? `Http${status}` : `Hms${code}` }));
}
