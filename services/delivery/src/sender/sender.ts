import type { DeliveryBatchV1, Provider } from '@herald/events';
import type { ConsumedEvent, HandlerContext, Outgoing } from '@herald/kafka';
import { isRebalance, isRetriable, RebalanceError } from '@herald/errors';
import type { Logger } from '@herald/log';
import { backoffDelay, retry, type Clock } from '@herald/retry';
import { buildApnsRequest, buildFcmMessage, type PushMessage } from '@herald/push-payloads';
import { createLimiter } from '../providers/concurrency.ts';
import type { DeviceTarget } from '../providers/push-message.ts';
import { isThrottled, sendWithRetry, type AttemptedResult, type RetryPolicy } from './retry.ts';
import type { ProviderClients } from './provider-clients.ts';
import { allFailed, batchReport, cancelledReport, expiredReport, isExpired } from './report.ts';
import { SendPacer } from '../control/send-pace.ts';
import type { LaneGate } from './lane-gate.ts';
import { inBatchOrder, splitUnsendable } from './unsendable.ts';
import { handOffBatch, retryWaitMs, splitOpen } from './hand-off.ts';

export interface SenderDeps {
  provider: Provider;
  clients: ProviderClients;
  /** Batches of a cancelled notification are reported `cancelled`, not sent. */
  isCancelled(notificationId: string): boolean;
  /** A paused notification's batches wait in place (heartbeating) until it is resumed, cancelled or expired. */
  isPaused?(notificationId: string): boolean;
  /** Resolves at the next control change (a paused batch rechecks at once). */
  changed?(): Promise<void>;
  /** Pushes per second this instance may send of the batch's notification (its share of the pace in effect); undefined: unpaced. */
  pacePerSecond?(batch: DeliveryBatchV1): number | undefined;
  /** Pushes per second this instance may send of the project's campaigns (its share of `herald projects budget`); undefined: no budget. Campaign lane only. */
  budgetPerSecond?(projectId: string): Promise<number | undefined>;
  /** The projects' buckets, shared by the process's APNs and FCM campaign senders (a project's budget covers both). */
  projectPacer?: SendPacer;
  policy: RetryPolicy;
  clock: Clock;
  logger: Logger;
  /** Batches sent at once (each client also bounds its own requests in flight). */
  concurrency?: number;
  /** Reports of the last this many batches are kept, to publish again (not send again) when a chunk's commit was lost. */
  recentReports?: number;
  observer?: SenderObserver;
  /**
   * Which work topics this sender consumes: express calls pre-empt campaign
   * calls through `gate`. The campaign and express lanes send a batch once
   * and hand its still-retryable devices to the retry lane, which retries
   * them in place (back-off, Retry-After, deadlines) among retrying batches only.
   */
  lane?: 'campaign' | 'express' | 'retry';
  /** Shared by both lanes of the provider in this process (lane-gate.ts). */
  gate?: LaneGate;
  /** A provider pushed back on the project until `until` (429 with Retry-After): published as ProjectThrottled. */
  onThrottled?(projectId: string, until: number, reason: string): void;
  /** Longest a batch waits out a provider's push-back before those waits count as failed attempts (default 10 min; a batch's `expires_at` comes first). */
  throttleMaxMs?: number;
}

/** How long a batch waits out a provider's push-back at most, by default. */
export const THROTTLE_MAX_MS = 10 * 60 * 1000;

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

const isInfrastructure = (error: unknown) => isRetriable(error) || isRebalance(error);

/**
 * Waits out an infrastructure failure (the credential store down) in place
 * with back-off, heartbeating, so the chunk's other batches are not sent
 * again; a rebalance still stops it (the heartbeat throws).
 */
function untilAvailable<T>(deps: SenderDeps, context: HandlerContext, work: () => Promise<T>): Promise<T> {
  return retry(() => work(), {
    classify: (error) => isRetriable(error) && !isRebalance(error),
    backoff: deps.policy,
    clock: deps.clock,
    onRetry: async (error, attempt) => {
      deps.logger.warn({ err: error, attempt }, 'provider client not available; retrying');
      await context.heartbeat();
    },
  });
}

/** The batch's provider payload, built once, and the send to one set of its devices. */
async function batchSender(deps: SenderDeps, batch: DeliveryBatchV1, context: HandlerContext): Promise<((devices: readonly DeviceTarget[]) => Promise<AttemptedResult[]>) | string> {
  const message = pushMessage(batch);
  const now = deps.clock.now();
  const expiresAt = batch.data.expires_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(batch.data.expires_at);
  const hooks = {
    isInfrastructure,
    onFailedAttempt: (error: unknown, failures: number) => deps.logger.warn({ err: error, batch_id: batch.data.batch_id, failures, max: deps.policy.maxAttempts }, 'batch attempt failed'),
    onThrottled: (waitMs: number, reason: string) => {
      deps.logger.info({ batch_id: batch.data.batch_id, project_id: batch.project_id, wait_ms: waitMs, reason }, 'provider pushed back: waiting, not failing');
      deps.onThrottled?.(batch.project_id, deps.clock.now() + waitMs, reason);
    },
    throttleUntil: Math.min(expiresAt, now + (deps.throttleMaxMs ?? THROTTLE_MAX_MS)),
    handOff: deps.lane !== 'retry',
    ...(batch.data.retry === undefined ? {} : { sendsBefore: batch.data.retry.sends }),
  };
  // Waits (back-off, Retry-After) heartbeat, so a long push-back does not cost the partition.
  const clock = { ...deps.clock, sleep: (ms: number) => sleepHeartbeating(deps, context, ms) };
  const gated = <T>(call: () => Promise<T>): Promise<T> => (deps.gate === undefined ? call() : deps.lane === 'express' ? deps.gate.express(call) : deps.gate.campaign(call));
  // Express requests also go ahead of campaign requests already waiting inside the client for its send slots.
  const urgent = deps.lane === 'express';
  if (deps.provider === 'apns') {
    const client = await untilAvailable(deps, context, () => deps.clients.apns(batch.project_id));
    if (client === undefined) return 'NoApnsCredentials';
    const request = builtPayload(deps, batch, () => buildApnsRequest(message));
    if (request === undefined) return PAYLOAD_BUILD_FAILED;
    return (devices) => sendWithRetry(devices, (open) => gated(() => timed(deps, () => client.send(open, request, urgent))), deps.policy, clock, hooks);
  }
  const client = await untilAvailable(deps, context, () => deps.clients.fcm(batch.project_id));
  if (client === undefined) return 'NoFcmCredentials';
  const fcmMessage = builtPayload(deps, batch, () => buildFcmMessage(message));
  if (fcmMessage === undefined) return PAYLOAD_BUILD_FAILED;
  return (devices) => sendWithRetry(devices, (open) => gated(() => timed(deps, () => client.send(open, fcmMessage, urgent))), deps.policy, clock, hooks);
}

/** The reason every device of a batch gets when its provider payload cannot be built. */
export const PAYLOAD_BUILD_FAILED = 'PayloadBuildFailed';

/** A payload that cannot be built now never can (it is pure over the batch): the batch fails, final, without a send. */
function builtPayload<T>(deps: SenderDeps, batch: DeliveryBatchV1, build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    deps.logger.warn({ err: error, batch_id: batch.data.batch_id, project_id: batch.project_id }, 'provider payload could not be built: batch failed, not retried');
    return undefined;
  }
}

/** Sleeps `ms` in pieces of at most 5 s, heartbeating between them. */
async function sleepHeartbeating(deps: SenderDeps, context: HandlerContext, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 1_000) {
    leaveIfMoved(context);
    await deps.clock.sleep(Math.min(left, 1_000));
    if (left > 1_000) await context.heartbeat();
  }
}

/**
 * A batch waiting (paused, paced, backing off) stops waiting once its
 * partition is no longer this member's or the consumer is stopping: it is
 * left unsent and uncommitted for the partition's next owner, so a stop
 * never waits on a paused campaign.
 */
function leaveIfMoved(context: HandlerContext): void {
  if (context.active?.() === false) throw new RebalanceError('the partition moved or the sender is stopping while this batch waited; its next owner sends it');
}

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
  const handleBatch = async (batch: DeliveryBatchV1, context: HandlerContext): Promise<Outgoing[]> => {
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
  const sendAndReport = async (batch: DeliveryBatchV1, context: HandlerContext): Promise<Outgoing[]> => {
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
    const { sendable, unsendable } = splitUnsendable(deps.provider, batch.data.devices);
    if (unsendable.length > 0) deps.logger.warn({ batch_id: batch.data.batch_id, project_id: batch.project_id, devices: unsendable.length }, 'malformed device tokens: reported invalid and deactivated, not sent');
    const send = sendable.length === 0 ? undefined : await batchSender(deps, batch, context);
    let results: AttemptedResult[];
    if (typeof send === 'string') {
      if (send !== PAYLOAD_BUILD_FAILED) {
        deps.logger.warn({ project_id: batch.project_id, notification_id: batch.data.notification_id, devices: batch.data.devices.length, reason: send }, 'project has no credentials for this provider: `herald providers` sets them');
      }
      results = inBatchOrder(batch.data.devices, allFailed(sendable, send), unsendable);
    } else {
      results = inBatchOrder(batch.data.devices, send === undefined ? [] : await send(sendable), unsendable);
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
    const batches = records.flatMap(({ event }) => (event.type === 'DeliveryBatch' && event.data.provider === deps.provider ? [event] : []));
    // Settle every batch before failing: a retry of the chunk must not race a send still in flight.
    // A paced batch waits for its turn before it takes a send slot, so the slots stay free for other notifications.
    const paced = async (batch: DeliveryBatchV1) => {
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

function observeOutcomes(deps: SenderDeps, results: ReadonlyArray<{ outcome: string }>): void {
  if (deps.observer === undefined) return;
  const byOutcome = new Map<string, number>();
  for (const result of results) byOutcome.set(result.outcome, (byOutcome.get(result.outcome) ?? 0) + 1);
  for (const [outcome, count] of byOutcome) deps.observer.outcome(deps.provider, outcome, count);
}

/**
 * A paced notification's batch leaves no sooner than this instance's share
 * of the pace allows, and a campaign's batch no sooner than its project's
 * budget allows (control/send-pace.ts): a sender catching up a backlog
 * sends it at the rate, not at once. It heartbeats while it waits; a pause,
 * cancel or deadline is checked after the wait.
 */
async function atPace(deps: SenderDeps, pacer: { notifications: SendPacer; projects: SendPacer }, batch: DeliveryBatchV1, context: HandlerContext): Promise<void> {
  const perSecond = deps.pacePerSecond?.(batch);
  const budget = deps.lane === 'express' ? undefined : await deps.budgetPerSecond?.(batch.project_id);
  const now = deps.clock.now();
  const pushes = batch.data.devices.length;
  let waitMs = Math.max(
    perSecond === undefined || perSecond <= 0 ? 0 : pacer.notifications.book(batch.data.notification_id, now, pushes, perSecond),
    budget === undefined || budget <= 0 ? 0 : pacer.projects.book(batch.project_id, now, pushes, budget),
  );
  while (waitMs > 0 && !deps.isCancelled(batch.data.notification_id)) {
    leaveIfMoved(context);
    const slice = Math.min(waitMs, 1_000);
    await deps.clock.sleep(slice);
    waitMs -= slice;
    await context.heartbeat();
  }
}

/**
 * A batch of a paused notification waits where it is — not sent, not
 * reported, its offset not committed — until the notification is resumed,
 * cancelled or past its deadline; it heartbeats, so a rebalance (or this
 * instance's death) hands it to the partition's next owner, which waits
 * the same way. Checked again on every control change and each second.
 */
async function whilePaused(deps: SenderDeps, batch: DeliveryBatchV1, context: HandlerContext): Promise<void> {
  const id = batch.data.notification_id;
  let logged = false;
  while (deps.isPaused?.(id) === true && !deps.isCancelled(id) && !isExpired(batch, deps.clock.now())) {
    leaveIfMoved(context);
    if (!logged) deps.logger.info({ batch_id: batch.data.batch_id, notification_id: id }, 'notification paused: batch held until resumed');
    logged = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000))), ...(deps.changed === undefined ? [] : [deps.changed()])]);
    clearTimeout(timer);
    await context.heartbeat();
  }
}

/**
 * The reports of the batches this sender sent most recently, by batch id
 * (least recently set dropped first). A batch is reported once it commits;
 * until then, a chunk taken again after a lost commit finds its batches here.
 */
export class RecentReports {
  readonly #reports = new Map<string, Outgoing[]>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(batchId: string): Outgoing[] | undefined {
    return this.#reports.get(batchId);
  }

  set(batchId: string, outputs: Outgoing[]): void {
    this.#reports.delete(batchId);
    this.#reports.set(batchId, outputs);
    if (this.#reports.size > this.#capacity) this.#reports.delete(this.#reports.keys().next().value!);
  }
}
