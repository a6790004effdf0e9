import type { DeliveryBatchV1, Provider } from '@herald/events';
import type { ConsumedEvent, EventProducer, HandlerContext } from '@herald/kafka';
import type { IdempotencyStore } from '@herald/admin';
import type { Logger } from '@herald/log';
import { buildApnsRequest, buildFcmMessage, type PushMessage } from '@herald/push-payloads';
import { createLimiter } from '../providers/concurrency.ts';
import { deliverWithRetry, type Clock, type RetryPolicy, type AttemptedResult } from './deliver-with-retry.ts';
import type { ProviderClients } from './provider-clients.ts';
import { allFailed, batchReport } from './report.ts';

export interface SenderDeps {
  provider: Provider;
  clients: ProviderClients;
  producer: EventProducer;
  /** Remembers finished batches, so a redelivered batch is not sent again. */
  ledger: IdempotencyStore;
  policy: RetryPolicy;
  clock: Clock;
  logger: Logger;
  /** Batches sent at once (each client also bounds its own requests in flight). */
  concurrency?: number;
  observer?: SenderObserver;
}

/** Hooks for metrics. */
export interface SenderObserver {
  /** One provider send call (a batch, or its retry) took this long. */
  sent(provider: Provider, seconds: number): void;
  outcome(provider: Provider, outcome: string, count: number): void;
}

function pushMessage(batch: DeliveryBatchV1): PushMessage {
  const { message } = batch.data;
  return { notification_id: batch.data.notification_id, project_id: batch.project_id, ...message };
}

/** Wraps a provider send so each call's duration is observed. */
function timed<T>(deps: SenderDeps, send: () => Promise<T>): Promise<T> {
  const started = performance.now();
  return send().finally(() => deps.observer?.sent(deps.provider, (performance.now() - started) / 1000));
}

async function sendBatch(deps: SenderDeps, batch: DeliveryBatchV1): Promise<AttemptedResult[]> {
  const message = pushMessage(batch);
  if (deps.provider === 'apns') {
    const client = await deps.clients.apns(batch.project_id);
    if (client === undefined) return allFailed(batch, 'NoApnsCredentials');
    const request = buildApnsRequest(message);
    return deliverWithRetry(batch.data.devices, (devices) => timed(deps, () => client.send(devices, request)), deps.policy, deps.clock);
  }
  const client = await deps.clients.fcm(batch.project_id);
  if (client === undefined) return allFailed(batch, 'NoFcmCredentials');
  const fcmMessage = buildFcmMessage(message);
  return deliverWithRetry(batch.data.devices, (devices) => timed(deps, () => client.send(devices, fcmMessage)), deps.policy, deps.clock);
}

/**
 * Sends each DeliveryBatch once: a batch already reported is skipped; one
 * that was being sent when a sender died is sent again (so at most the
 * batches in flight at a crash are repeated, never a campaign). Outcomes
 * go out as DeliveryReported and DeviceDeactivated before the batch is
 * marked done and its offset committed.
 */
export function senderHandler(deps: SenderDeps) {
  const limiter = createLimiter(deps.concurrency ?? 8, 'sender concurrency');
  const handleBatch = async (batch: DeliveryBatchV1) => {
    const key = `batch:${batch.data.batch_id}`;
    const claim = await deps.ledger.claim(key, 'batch', Number.POSITIVE_INFINITY);
    if (claim.kind === 'done') {
      deps.logger.debug({ batch_id: batch.data.batch_id }, 'batch already reported; skipped');
      return;
    }
    const results = await sendBatch(deps, batch);
    const { reported, deactivated } = batchReport(batch, results);
    await deps.producer.publish([reported, ...deactivated]);
    if (deps.observer !== undefined) {
      const byOutcome = new Map<string, number>();
      for (const result of reported.data.results) byOutcome.set(result.outcome, (byOutcome.get(result.outcome) ?? 0) + 1);
      for (const [outcome, count] of byOutcome) deps.observer.outcome(deps.provider, outcome, count);
    }
    await deps.ledger.complete(key, null);
  };
  return async (records: readonly ConsumedEvent[], context: HandlerContext): Promise<void> => {
    const batches = records.flatMap(({ event }) => (event.type === 'DeliveryBatch' && event.data.provider === deps.provider ? [event] : []));
    await Promise.all(
      batches.map((batch) =>
        limiter.run(async () => {
          await handleBatch(batch);
          await context.heartbeat();
        }),
      ),
    );
  };
}
