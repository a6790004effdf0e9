import type { DeliveryBatchV1, Provider } from '@herald/events';
import type { ConsumedEvent, EventProducer, HandlerContext } from '@herald/kafka';
import { isRebalance, isRetriable } from '@herald/errors';
import type { Logger } from '@herald/log';
import { buildApnsRequest, buildFcmMessage, type PushMessage } from '@herald/push-payloads';
import { createLimiter } from '../providers/concurrency.ts';
import type { DeviceTarget } from '../providers/push-message.ts';
import { backoffMs, deliverWithRetry, type Clock, type RetryPolicy, type AttemptedResult } from './deliver-with-retry.ts';
import type { BatchAttemptStore } from './batch-attempts.ts';
import { sendWithAttempts } from './send-with-attempts.ts';
import type { ProviderClients } from './provider-clients.ts';
import { allFailed, batchReport, cancelledReport } from './report.ts';
import type { CancellationStore } from '../cancellations.ts';

export interface SenderDeps {
  provider: Provider;
  clients: ProviderClients;
  producer: EventProducer;
  /** Remembers finished batches and failed attempts, so a redelivered batch is not sent again. */
  batches: BatchAttemptStore;
  /** Batches of a cancelled notification are reported `cancelled`, not sent. */
  cancellations: Pick<CancellationStore, 'isCancelled'>;
  /** Attempts per batch before its open devices are reported failed (AttemptsExhausted). */
  maxAttempts: number;
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

/** A project without this provider's credential: every device fails with a reason its receipts show, and the operator sees why. */
function noCredentials(deps: SenderDeps, batch: DeliveryBatchV1, targets: readonly DeviceTarget[], reason: string): AttemptedResult[] {
  deps.logger.warn({ project_id: batch.project_id, notification_id: batch.data.notification_id, devices: targets.length, reason }, 'project has no credentials for this provider: `herald providers` sets them');
  return allFailed(targets, reason);
}

async function sendBatch(deps: SenderDeps, batch: DeliveryBatchV1, targets: readonly DeviceTarget[]): Promise<AttemptedResult[]> {
  const message = pushMessage(batch);
  if (deps.provider === 'apns') {
    const client = await deps.clients.apns(batch.project_id);
    if (client === undefined) return noCredentials(deps, batch, targets, 'NoApnsCredentials');
    const request = buildApnsRequest(message);
    return deliverWithRetry(targets, (devices) => timed(deps, () => client.send(devices, request)), deps.policy, deps.clock);
  }
  const client = await deps.clients.fcm(batch.project_id);
  if (client === undefined) return noCredentials(deps, batch, targets, 'NoFcmCredentials');
  const fcmMessage = buildFcmMessage(message);
  return deliverWithRetry(targets, (devices) => timed(deps, () => client.send(devices, fcmMessage)), deps.policy, deps.clock);
}

const isInfrastructure = (error: unknown) => isRetriable(error) || isRebalance(error);

/**
 * Retries recording a sent batch (its report, its done mark) through a
 * Kafka or store outage, with back-off and no cap. Handing the error to the
 * runner instead would redeliver the chunk and send the batch again. A
 * rebalance still stops it (the heartbeat throws): the new owner re-sends
 * at most this batch.
 */
async function untilRecorded(deps: SenderDeps, context: HandlerContext, record: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await record();
      return;
    } catch (error) {
      if (!isRetriable(error) || isRebalance(error)) throw error;
      deps.logger.warn({ err: error, attempt }, 'recording a sent batch failed; retrying');
    }
    await context.heartbeat().catch((error: unknown) => {
      if (isRebalance(error)) throw error;
    });
    await deps.clock.sleep(backoffMs(attempt, { ...deps.policy, maxDelayMs: 5_000 }, deps.clock.random()));
  }
}

/**
 * Sends each DeliveryBatch once: a batch already reported is skipped; one
 * that was being sent when a sender died is sent again (so at most the
 * batches in flight at a crash are repeated, never a campaign). Each batch
 * is its own task: a failing batch is retried alone (capped attempts), and
 * the chunk's other batches finish and are recorded done before any error
 * reaches the runner, so its redelivery re-sends none of them. Outcomes go
 * out as DeliveryReported and DeviceDeactivated before the batch is marked
 * done and its offset committed.
 */
export function senderHandler(deps: SenderDeps) {
  const limiter = createLimiter(deps.concurrency ?? 8, 'sender concurrency');
  const handleBatch = async (batch: DeliveryBatchV1, context: HandlerContext) => {
    const batchId = batch.data.batch_id;
    const state = await deps.batches.state(batchId);
    if (state.kind === 'done') {
      deps.logger.debug({ batch_id: batchId }, 'batch already reported; skipped');
      return;
    }
    if (await deps.cancellations.isCancelled(batch.data.notification_id)) {
      await untilRecorded(deps, context, () => deps.producer.publish([cancelledReport(batch)]));
      deps.observer?.outcome(deps.provider, 'cancelled', batch.data.devices.length);
      await untilRecorded(deps, context, () => deps.batches.done(batchId));
      return;
    }
    const results = await sendWithAttempts(batch.data.devices, {
      send: (targets) => sendBatch(deps, batch, targets),
      priorFailures: state.failures,
      maxAttempts: deps.maxAttempts,
      recordFailure: () => deps.batches.failed(batchId),
      between: async (failures) => {
        await context.heartbeat();
        await deps.clock.sleep(backoffMs(failures, deps.policy, deps.clock.random()));
      },
      isInfrastructure,
      onFailure: (error, failures) => deps.logger.warn({ err: error, batch_id: batchId, failures, max: deps.maxAttempts }, 'batch attempt failed'),
    });
    const { reported, deactivated } = batchReport(batch, results);
    // The pushes are out: from here an outage must not send them again, so wait it out in this task.
    await untilRecorded(deps, context, () => deps.producer.publish([reported, ...deactivated]));
    if (deps.observer !== undefined) {
      const byOutcome = new Map<string, number>();
      for (const result of reported.data.results) byOutcome.set(result.outcome, (byOutcome.get(result.outcome) ?? 0) + 1);
      for (const [outcome, count] of byOutcome) deps.observer.outcome(deps.provider, outcome, count);
    }
    await untilRecorded(deps, context, () => deps.batches.done(batchId));
  };
  return async (records: readonly ConsumedEvent[], context: HandlerContext): Promise<void> => {
    const batches = records.flatMap(({ event }) => (event.type === 'DeliveryBatch' && event.data.provider === deps.provider ? [event] : []));
    const settled = await Promise.allSettled(
      batches.map((batch) =>
        limiter.run(async () => {
          await handleBatch(batch, context);
          await context.heartbeat();
        }),
      ),
    );
    const errors = settled.flatMap((item) => (item.status === 'rejected' ? [item.reason as unknown] : []));
    if (errors.length === 0) return;
    // A rebalance wins (abandon the chunk), then infrastructure (retry the chunk: done batches are skipped).
    throw errors.find(isRebalance) ?? errors.find(isInfrastructure) ?? errors[0];
  };
}
