import { createEvent, type ConsumedEvent, type LiveActivityRequestedV2 } from '@herald/events';
import type { Outgoing } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { AppError } from '@herald/errors';
import { buildLiveActivityRequest } from '@herald/push-payloads';
import { retry, type BackoffPolicy, type Clock } from '@herald/retry';
import type { ApnsClient } from '../providers/apns-client.ts';
import type { DeviceResult } from '../providers/push-message.ts';
import { coalesceStep } from './coalesce.ts';
import { allFailed, removeUpdateTokensNow, tokenOutcome, type ActivityToken, type TokenOutcome } from './outcomes.ts';

/** What the handler reads and writes; each call throws an InfrastructureError (retried by the runner) when the store is down. */
export interface LiveActivityPorts {
  /** update/end: the activity's update tokens; start: the targets' push-to-start tokens for the attributes type. */
  tokensOf(projectId: string, request: LiveActivityRequestedV2['data']): Promise<ActivityToken[]>;
  removeToken(projectId: string, token: ActivityToken): Promise<void>;
  removeUpdateTokens(projectId: string, activityId: string): Promise<void>;
  /** An end with a later dismissal date: the activity's update tokens go once it passes (kept in the store, so a restart keeps it). */
  removeUpdateTokensAt(projectId: string, activityId: string, at: Date): Promise<void>;
  report(projectId: string, requestId: string, outcomes: readonly TokenOutcome[], at: Date): Promise<void>;
  reportCoalesced(projectId: string, requestId: string, into: string, tokens: number, at: Date): Promise<void>;
  /** The next newer update request of the activity (by aps.timestamp), if any was accepted. */
  newerUpdate(projectId: string, activityId: string, timestamp: number): Promise<{ id: string; createdAtMs: number } | undefined>;
  /** When the activity was last sent a push (by any instance), if ever. */
  lastSentAt(projectId: string, activityId: string): Promise<number | undefined>;
  apns(projectId: string): Promise<ApnsClient | undefined>;
}

export interface LiveActivitySettings {
  /** A request older than this is reported failed (`Expired`), not sent: a new group reading old records sends nothing stale. */
  maxAgeMs: number;
  /** Sends of one request in all, the first included, while APNs answers retryably. */
  attempts: number;
  backoff: BackoffPolicy;
  /** The per-activity rate as an interval: quicker updates are coalesced (coalesce.ts); 0: off. */
  updateIntervalMs: number;
}

/** A request's fate: sent (one outcome per token), or coalesced into a newer update. */
type Fate = { outcomes: TokenOutcome[]; coalesced?: { into: string; tokens: number } };

/** Thrown inside the retry while tokens still answer retryably. */
class StillRetryable extends Error {}

/**
 * The apns role's Live Activity sender (group herald.live-activities): for
 * each LiveActivityRequested, the tokens as they are now, one APNs request
 * built once (its timestamp fixed by the API), retryable answers sent again
 * with back-off, dead tokens removed, and LiveActivityReported with an
 * outcome per token; an update under the per-activity rate is coalesced
 * into a newer one or held (coalesce.ts), and an end removes the activity's
 * update tokens now or at its dismissal date. docs/guides/live-activities.md.
 */
export function liveActivityHandler(ports: LiveActivityPorts, settings: LiveActivitySettings, clock: Clock, logger: Logger) {
  return async (records: ConsumedEvent[]): Promise<Outgoing[]> => {
    const out: Outgoing[] = [];
    for (const { event } of records) {
      if (event.type !== 'LiveActivityRequested') continue;
      const fate = await sendOne(event);
      const now = new Date(clock.now());
      const { request_id: requestId, activity_id: activityId } = event.data;
      if (fate.coalesced !== undefined) await ports.reportCoalesced(event.project_id, requestId, fate.coalesced.into, fate.coalesced.tokens, now);
      else await ports.report(event.project_id, requestId, fate.outcomes, now);
      if (activityId !== undefined && event.data.event === 'end') {
        if (removeUpdateTokensNow(event.data.event, event.data.dismissal_date, now.getTime())) await ports.removeUpdateTokens(event.project_id, activityId);
        else await ports.removeUpdateTokensAt(event.project_id, activityId, new Date(event.data.dismissal_date! * 1000));
      }
      const data = fate.coalesced === undefined ? { request_id: requestId, outcomes: fate.outcomes } : { request_id: requestId, outcomes: [], coalesced_into: fate.coalesced.into, coalesced_tokens: fate.coalesced.tokens };
      out.push({ event: createEvent('LiveActivityReported', data, { project_id: event.project_id, correlation_id: event.correlation_id, now }) });
    }
    return out;
  };

  /**
   * An update under the per-activity rate: coalesced into a newer one, or
   * held until the interval since the activity's last push has passed (then
   * asked again: newer updates may have come meanwhile). Bounded: after a
   * few holds it is sent.
   */
  async function coalescedInto(event: LiveActivityRequestedV2): Promise<string | undefined> {
    const { activity_id: activityId, timestamp } = event.data;
    if (event.data.event !== 'update' || activityId === undefined || settings.updateIntervalMs <= 0) return undefined;
    for (let holds = 0; ; holds += 1) {
      const [newer, lastSentAtMs] = await Promise.all([ports.newerUpdate(event.project_id, activityId, timestamp), ports.lastSentAt(event.project_id, activityId)]);
      const step = coalesceStep({ createdAtMs: Date.parse(event.occurred_at), newer, lastSentAtMs, nowMs: clock.now(), intervalMs: settings.updateIntervalMs });
      if (step.kind === 'coalesce') return step.into;
      if (step.kind === 'send' || holds >= 3) return undefined;
      await clock.sleep(step.ms);
    }
  }

  async function sendOne(event: LiveActivityRequestedV2): Promise<Fate> {
    const projectId = event.project_id;
    const tokens = await ports.tokensOf(projectId, event.data);
    if (tokens.length === 0) return { outcomes: [] };
    if (clock.now() - Date.parse(event.occurred_at) > settings.maxAgeMs) return { outcomes: allFailed(tokens, 'Expired') };
    const into = await coalescedInto(event);
    if (into !== undefined) return { outcomes: [], coalesced: { into, tokens: tokens.length } };
    return { outcomes: await sendTo(event, tokens) };
  }

  async function sendTo(event: LiveActivityRequestedV2, tokens: ActivityToken[]): Promise<TokenOutcome[]> {
    const projectId = event.project_id;
    let client: ApnsClient | undefined;
    try {
      client = await ports.apns(projectId);
    } catch (error) {
      if (error instanceof AppError && !error.retriable) return allFailed(tokens, `ApnsCredentialInvalid: ${error.message}`);
      throw error;
    }
    if (client === undefined) return allFailed(tokens, 'NoApnsCredentials');
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
