import { createEvent, type ConsumedEvent, type LiveActivityRequestedV1 } from '@herald/events';
import type { Outgoing } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { AppError } from '@herald/errors';
import { buildLiveActivityRequest } from '@herald/push-payloads';
import { retry, type BackoffPolicy, type Clock } from '@herald/retry';
import type { ApnsClient } from '../providers/apns-client.ts';
import type { DeviceResult } from '../providers/push-message.ts';
import { allFailed, removeUpdateTokensNow, tokenOutcome, type ActivityToken, type TokenOutcome } from './outcomes.ts';

/** What the handler reads and writes; each call throws an InfrastructureError (retried by the runner) when the store is down. */
export interface LiveActivityPorts {
  /** update/end: the activity's update tokens; start: the targets' push-to-start tokens for the attributes type. */
  tokensOf(projectId: string, request: LiveActivityRequestedV1['data']): Promise<ActivityToken[]>;
  removeToken(projectId: string, token: ActivityToken): Promise<void>;
  removeUpdateTokens(projectId: string, activityId: string): Promise<void>;
  report(projectId: string, requestId: string, outcomes: readonly TokenOutcome[], at: Date): Promise<void>;
  apns(projectId: string): Promise<ApnsClient | undefined>;
}

export interface LiveActivitySettings {
  /** A request older than this is reported failed (`Expired`), not sent: a new group reading old records sends nothing stale. */
  maxAgeMs: number;
  /** Sends of one request in all, the first included, while APNs answers retryably. */
  attempts: number;
  backoff: BackoffPolicy;
}

/** Thrown inside the retry while tokens still answer retryably. */
class StillRetryable extends Error {}

/**
 * The apns role's Live Activity sender (group herald.live-activities): for
 * each LiveActivityRequested, the tokens as they are now, one APNs request
 * built once (its timestamp fixed by the API), retryable answers sent again
 * with back-off, dead tokens removed, and LiveActivityReported with an
 * outcome per token. docs/guides/live-activities.md.
 */
export function liveActivityHandler(ports: LiveActivityPorts, settings: LiveActivitySettings, clock: Clock, logger: Logger) {
  return async (records: ConsumedEvent[]): Promise<Outgoing[]> => {
    const out: Outgoing[] = [];
    for (const { event } of records) {
      if (event.type !== 'LiveActivityRequested') continue;
      const outcomes = await sendOne(event);
      const now = new Date(clock.now());
      await ports.report(event.project_id, event.data.request_id, outcomes, now);
      if (event.data.activity_id !== undefined && removeUpdateTokensNow(event.data.event, event.data.dismissal_date, now.getTime())) {
        await ports.removeUpdateTokens(event.project_id, event.data.activity_id);
      }
      out.push({ event: createEvent('LiveActivityReported', { request_id: event.data.request_id, outcomes }, { project_id: event.project_id, correlation_id: event.correlation_id, now }) });
    }
    return out;
  };

  async function sendOne(event: LiveActivityRequestedV1): Promise<TokenOutcome[]> {
    const projectId = event.project_id;
    const tokens = await ports.tokensOf(projectId, event.data);
    if (tokens.length === 0) return [];
    if (clock.now() - Date.parse(event.occurred_at) > settings.maxAgeMs) return allFailed(tokens, 'Expired');
    let client: ApnsClient | undefined;
    try {
      client = await ports.apns(projectId);
    } catch (error) {
      if (error instanceof AppError && !error.retriable) return allFailed(tokens, `ApnsCredentialInvalid: ${error.message}`);
      throw error;
    }
    if (client === undefined) return allFailed(tokens, 'NoApnsCredential');
    const request = buildLiveActivityRequest(event.data);
    const done = new Map<string, TokenOutcome>();
    const lastReason = new Map<string, string>();
    let pending = tokens;
    try {
      await retry(
        async () => {
          const results: DeviceResult[] = await client.sendLiveActivity(pending.map((token) => ({ device_id: token.device_id, token: token.token })), request, true);
          const again: ActivityToken[] = [];
          results.forEach((result, index) => {
            const token = pending[index]!;
            const outcome = tokenOutcome(token, result);
            if (outcome === undefined) {
              again.push(token);
              lastReason.set(token.id, result.reason ?? 'Retryable');
            } else done.set(token.id, outcome);
          });
          pending = again;
          if (pending.length > 0) throw new StillRetryable(`${pending.length} tokens answered retryably`);
        },
        // Only retryable answers are retried here; anything else thrown is the runner's to judge (retry or dead-letter).
        { attempts: settings.attempts, backoff: settings.backoff, clock, classify: (error) => error instanceof StillRetryable },
      );
    } catch (error) {
      if (!(error instanceof StillRetryable)) throw error;
      logger.warn({ request_id: event.data.request_id, tokens: pending.length }, 'live activity tokens still failing after retries');
    }
    for (const token of pending) done.set(token.id, { device_id: token.device_id, token_id: token.id, outcome: 'failed', reason: lastReason.get(token.id) ?? 'Retryable' });
    for (const token of tokens) if (done.get(token.id)?.outcome === 'invalid') await ports.removeToken(projectId, token);
    return tokens.map((token) => done.get(token.id)!);
  }
}
