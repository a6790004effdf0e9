import type { LiveActivityReportedV1 } from '@herald/events';
import type { DeviceResult } from '../providers/push-message.ts';

export type TokenOutcome = LiveActivityReportedV1['data']['outcomes'][number];

export interface ActivityToken {
  id: string;
  device_id: string;
  token: string;
}

/**
 * A provider result as the report says it, or undefined while it may still
 * be retried. Pure. `token-invalid`: APNs no longer takes the token (the
 * caller removes it); `rejected`: the push will not be taken as it is.
 */
export function tokenOutcome(token: ActivityToken, result: DeviceResult): TokenOutcome | undefined {
  switch (result.outcome) {
    case 'delivered':
      return { device_id: token.device_id, token_id: token.id, outcome: 'delivered' };
    case 'token-invalid':
      return { device_id: token.device_id, token_id: token.id, outcome: 'invalid', ...(result.reason === undefined ? {} : { reason: result.reason }) };
    case 'rejected':
      return { device_id: token.device_id, token_id: token.id, outcome: 'failed', reason: result.reason ?? 'Rejected' };
    case 'retryable':
      return undefined;
  }
}

/** Every token failed for one reason (no credentials, too old to send). */
export function allFailed(tokens: readonly ActivityToken[], reason: string): TokenOutcome[] {
  return tokens.map((token) => ({ device_id: token.device_id, token_id: token.id, outcome: 'failed', reason }));
}

/**
 * When an ended activity's update tokens go: at once without a dismissal
 * date or once it has passed; a later dismissal date keeps them until then
 * (the sender stores the date on the tokens; the sweep removes them).
 */
export function removeUpdateTokensNow(event: 'start' | 'update' | 'end', dismissalDate: number | undefined, nowMs: number): boolean {
  return event === 'end' && (dismissalDate === undefined || dismissalDate * 1000 <= nowMs);
}
