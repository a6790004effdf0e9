import type { DeliveryBatchV2 } from '@herald/events';
import type { ConsumedEvent, HandlerContext, Outgoing } from '@herald/kafka';
import { RebalanceError } from '@herald/errors';
import { backoffDelay } from '@herald/retry';
import { createLimiter } from '../providers/concurrency.ts';
import { isThrottled, type AttemptedResult } from './retry.ts';
import { allFailed, batchReport, cancelledReport, expiredReport, isExpired } from './report.ts';
import { SendPacer } from '../control/send-pace.ts';
import { inBatchOrder, splitUnsendable } from './unsendable.ts';
import { handOffBatch, retryWaitMs, splitOpen } from './hand-off.ts';
import type { SenderDeps } from './sender-deps.ts';
import { batchSender, PAYLOAD_BUILD_FAILED } from './batch-sender.ts';
import { splitTemplateErrors } from './batch-contents.ts';
import { atPace, sleepHeartbeating, whilePaused } from './waits.ts';
import { RecentReports } from './recent-reports.ts';

export type { SenderDeps, SenderObserver } from './sender-deps.ts';
export { RecentReports } from './recent-reports.ts';

/**
 * The apns and fcm senders: each DeliveryBatch of a chunk is sent (several
 * at once), and its report — one DeliveryReported with every device's
 * outcome, a DeviceDeactivated per dead token — is returned for the
 * consumer to commit with the chunk's offset in one transaction. That
 * commit is the one place a batch becomes done: a batch is reported once,
 * and a crash before it re-sends at most the batches in hand.
 */
export function senderHandler(deps: SenderDeps) {
  const limiter = createLimiter(deps.concurrency ?? 8, 'sender concurrency');
  const sentRecently = new RecentReports(deps.recentReports ?? 128);
  const handleBatch = async (batch: DeliveryBatchV2, context: HandlerContext): Promise<Outgoing[]> => {
    // A chunk whose commit was lost (a broker restart aborted its transaction, a rebalance took it) comes
    // back; the pushes went out already: its report is published again, nothing is sent twice.
    const reported = sentRecently.get(batch.data.batch_id);
    if (reported !== undefined) {
      deps.logger.info({ batch_id: batch.data.batch_id }, 'batch sent before its commit was lost: reporting it again, not sending it');
      return reported;
    }
    // The batch waited for a send slot (the lane's partitions share them): if its partition moved meanwhile, its
    // next owner sends it; sending it here too would push it twice.
    if (context.active?.() === false) throw new RebalanceError('the partition moved before this batch was sent; its next owner sends it');
    const outputs = await sendAndReport(batch, context);
    sentRecently.set(batch.data.batch_id, outputs);
    return outputs;
  };
  const pacer = { notifications: new SendPacer(), projects: deps.projectPacer ?? new SendPacer() };
  const sendAndReport = async (batch: DeliveryBatchV2, context: HandlerContext): Promise<Outgoing[]> => {
    // A handed-off batch waits out its back-off here, in the retry lane, where it holds only other retrying batches.
    const retryAt = batch.data.retry === undefined ? 0 : Date.parse(batch.data.retry.after);
    if (retryAt > deps.clock.now()) await sleepHeartbeating(deps, context, retryAt - deps.clock.now());
    await whilePaused(deps, batch, context);
    if (deps.isCancelled(batch.data.notification_id)) {
      deps.observer?.outcome(deps.provider, 'cancelled', batch.data.devices.length);
      return [{ event: cancelledReport(batch) }];
    }
    if (isExpired(batch, deps.clock.now())) {
      deps.observer?.outcome(deps.provider, 'expired', batch.data.devices.length);
      return [{ event: expiredReport(batch) }];
    }
    // A stored token its provider can never accept ends here, final: sent, it would fail as if the connection had.
    // Devices whose content failed to render (a template send) are reported failed, never sent; the others go on.
    const { renderable, failed: templateFailed } = splitTemplateErrors(batch);
    const { sendable, unsendable } = splitUnsendable(deps.provider, renderable);
    if (unsendable.length > 0) deps.logger.warn({ batch_id: batch.data.batch_id, project_id: batch.project_id, devices: unsendable.length }, 'malformed device tokens: reported invalid and deactivated, not sent');
    const send = sendable.length === 0 ? undefined : await batchSender(deps, batch, context);
    let results: AttemptedResult[];
    if (typeof send === 'string') {
      if (send !== PAYLOAD_BUILD_FAILED) {
        deps.logger.warn({ project_id: batch.project_id, notification_id: batch.data.notification_id, devices: batch.data.devices.length, reason: send }, 'project has no credentials for this provider: `herald providers` sets them');
      }
      results = inBatchOrder(batch.data.devices, allFailed(sendable, send), unsendable, templateFailed);
    } else {
      results = inBatchOrder(batch.data.devices, send === undefined ? [] : await send(sendable), unsendable, templateFailed);
    }
    // The retry lane's loop ends every device final; the other lanes' single send may leave some open.
    const { settled, open } = splitOpen(results);
    const outputs: Outgoing[] = [];
    if (settled.length > 0) {
      const { reported, deactivated } = batchReport(batch, settled);
      observeOutcomes(deps, reported.data.results);
      outputs.push(...[reported, ...deactivated].map((event) => ({ event })));
    }
    if (open.length > 0) {
      const now = deps.clock.now();
      // The retry lane's first wait: the back-off after one failed send, or longer when the provider said Retry-After.
      const waitMs = retryWaitMs(open, backoffDelay(1, deps.policy, deps.clock.random()));
      deps.logger.info({ batch_id: batch.data.batch_id, project_id: batch.project_id, devices: open.length, reason: open[0]!.reason, wait_ms: waitMs }, 'devices still retryable: handed to the retry lane');
      // Every open device pushed back (429): the project's budget slows now, not only once the retry lane sees it again.
      if (open.every(isThrottled)) deps.onThrottled?.(batch.project_id, now + waitMs, open[0]!.reason!);
      deps.observer?.outcome(deps.provider, 'retrying', open.length);
      outputs.push(handOffBatch(batch, open, now, waitMs));
    }
    return outputs;
  };
  return async (records: readonly ConsumedEvent[], context: HandlerContext): Promise<Outgoing[]> => {
    const { batches, repeated } = firstOfEachBatch(records.flatMap(({ event }) => (event.type === 'DeliveryBatch' && event.data.provider === deps.provider ? [event] : [])));
    // Sent and reported once: both copies would pass the recent-reports check before either is sent.
    if (repeated.length > 0) deps.logger.warn({ batch_ids: repeated }, 'a batch appears twice in one chunk: sent and reported once');
    // Settle every batch before failing: a retry of the chunk must not race a send still in flight.
    // A paced batch waits for its turn before it takes a send slot, so the slots stay free for other notifications.
    const paced = async (batch: DeliveryBatchV2) => {
      // A retry lane's batch was paced at its first send.
      if (deps.lane !== 'retry' && sentRecently.get(batch.data.batch_id) === undefined) await atPace(deps, pacer, batch, context);
      return limiter.run(() => handleBatch(batch, context));
    };
    const settled = await Promise.allSettled(batches.map(paced));
    const failed = settled.find((item) => item.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return settled.flatMap((item) => (item.status === 'fulfilled' ? item.value : []));
  };
}

/** The chunk's batches, each batch id once (the first record of it), and the ids that came again (pure). */
export function firstOfEachBatch(batches: readonly DeliveryBatchV2[]): { batches: DeliveryBatchV2[]; repeated: string[] } {
  const seen = new Set<string>();
  const repeated: string[] = [];
  const first = batches.filter((batch) => {
    if (!seen.has(batch.data.batch_id)) return seen.add(batch.data.batch_id);
    repeated.push(batch.data.batch_id);
    return false;
  });
  return { batches: first, repeated };
}

function observeOutcomes(deps: SenderDeps, results: ReadonlyArray<{ outcome: string }>): void {
  if (deps.observer === undefined) return;
  const byOutcome = new Map<string, number>();
  for (const result of results) byOutcome.set(result.outcome, (byOutcome.get(result.outcome) ?? 0) + 1);
  for (const [outcome, count] of byOutcome) deps.observer.outcome(deps.provider, outcome, count);
}
