import { describe, expect, it } from 'vitest';
import { allFailed, removeUpdateTokensNow, tokenOutcome } from './outcomes.ts';

const token = { id: 't1', device_id: 'd1', token: 'aa' };

describe('tokenOutcome', () => {
  it('maps provider results to the report, leaving retryable ones open', () => {
    expect(tokenOutcome(token, { device_id: 'd1', outcome: 'delivered' })).toEqual({ device_id: 'd1', token_id: 't1', outcome: 'delivered' });
    expect(tokenOutcome(token, { device_id: 'd1', outcome: 'token-invalid', reason: 'Unregistered' })).toEqual({ device_id: 'd1', token_id: 't1', outcome: 'invalid', reason: 'Unregistered' });
    expect(tokenOutcome(token, { device_id: 'd1', outcome: 'rejected', reason: 'LiveActivityStaleTimestamp' })).toEqual({ device_id: 'd1', token_id: 't1', outcome: 'failed', reason: 'LiveActivityStaleTimestamp' });
    expect(tokenOutcome(token, { device_id: 'd1', outcome: 'retryable', reason: 'TooManyRequests' })).toBeUndefined();
  });

  it('fails every token for one reason', () => {
    expect(allFailed([token], 'NoApnsCredentials')).toEqual([{ device_id: 'd1', token_id: 't1', outcome: 'failed', reason: 'NoApnsCredentials' }]);
  });
});

describe('removeUpdateTokensNow', () => {
  it('removes at an end without a dismissal date or once it passed, never at a start or update', () => {
    expect(removeUpdateTokensNow('end', undefined, 1_000_000)).toBe(true);
    expect(removeUpdateTokensNow('end', 1000, 1_000_000)).toBe(true);
    expect(removeUpdateTokensNow('end', 1001, 1_000_000)).toBe(false);
    expect(removeUpdateTokensNow('update', undefined, 1_000_000)).toBe(false);
    expect(removeUpdateTokensNow('start', undefined, 1_000_000)).toBe(false);
  });
});
