import { describe, expect, it } from 'vitest';
import { hmsOutcome, illegalTokens } from './hms-outcome.ts';

const tokens = ['token-a', 'token-b', 'token-c'];

describe('hmsOutcome', () => {
  it('80000000 delivers every token, with the request id', () => {
    const result = hmsOutcome({ httpStatus: 200, code: '80000000', msg: 'Success', requestId: 'req-1' }, tokens);
    expect(result.refreshToken).toBe(false);
    expect(result.outcomes).toEqual(tokens.map(() => ({ outcome: 'delivered', providerMessageId: 'req-1' })));
  });

  it('80100000 makes the illegal tokens invalid and delivers the rest', () => {
    const msg = JSON.stringify({ success: 2, failure: 1, illegal_tokens: ['token-b'] });
    const result = hmsOutcome({ httpStatus: 200, code: '80100000', msg, requestId: 'req-2' }, tokens);
    expect(result.outcomes.map((outcome) => outcome.outcome)).toEqual(['delivered', 'token-invalid', 'delivered']);
    expect(result.outcomes[1]).toEqual({ outcome: 'token-invalid', reason: 'IllegalToken' });
  });

  it('80100000 with an unreadable msg retries nothing (the others got it)', () => {
    const result = hmsOutcome({ httpStatus: 200, code: '80100000', msg: 'not json' }, tokens);
    expect(result.outcomes.every((outcome) => outcome.outcome === 'rejected' && outcome.reason === 'PartialSuccessUnreadable')).toBe(true);
    expect(illegalTokens(JSON.stringify({ success: 1 }))).toBeUndefined();
  });

  it('an expired or invalid OAuth token asks for a refresh', () => {
    for (const [code, reason] of [['80200003', 'OAuthTokenExpired'], ['80200001', 'OAuthTokenInvalid']]) {
      const result = hmsOutcome({ httpStatus: 401, code }, tokens);
      expect(result.refreshToken).toBe(true);
      expect(result.outcomes[0]).toEqual({ outcome: 'rejected', reason });
    }
  });

  it('refusals of the message fail every token without deactivating any', () => {
    for (const [code, status, reason] of [['80300002', 403, 'NoPermission'], ['80300007', 400, 'AllTokensInvalid'], ['80300008', 413, 'MessageTooLarge']] as const) {
      const result = hmsOutcome({ httpStatus: status, code }, tokens);
      expect(result.refreshToken).toBe(false);
      expect(result.outcomes).toEqual(tokens.map(() => ({ outcome: 'rejected', reason })));
    }
  });

  it('81000001, 429 and 5xx are retried, after Retry-After when given', () => {
    expect(hmsOutcome({ httpStatus: 500, code: '81000001' }, tokens).outcomes[0]).toEqual({ outcome: 'retryable', reason: 'InternalError' });
    expect(hmsOutcome({ httpStatus: 429, retryAfter: '3' }, tokens).outcomes[2]).toEqual({ outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 3000 });
    expect(hmsOutcome({ httpStatus: 503 }, tokens).outcomes[0]).toEqual({ outcome: 'retryable', reason: 'Http503' });
    expect(hmsOutcome({ error: 'ETIMEDOUT' }, tokens).outcomes[0]).toEqual({ outcome: 'retryable', reason: 'ETIMEDOUT' });
  });

  it('an unknown code on a 4xx is a failure naming the code', () => {
    expect(hmsOutcome({ httpStatus: 400, code: '80199999' }, tokens).outcomes[0]).toEqual({ outcome: 'rejected', reason: 'Hms80199999' });
    expect(hmsOutcome({ httpStatus: 404 }, tokens).outcomes[0]).toEqual({ outcome: 'rejected', reason: 'Http404' });
  });
});
