import type { DeliveryBatchV2 } from '@herald/events';
import type { HandlerContext } from '@herald/kafka';
import { RebalanceError } from '@herald/errors';
import type { SendPacer } from '../control/send-pace.ts';
import { isExpired } from './report.ts';
import type { SenderDeps } from './sender-deps.ts';

/*
 * The ways a batch is held before (or between) its sends: backing off,
 * paced, paused. Each waits in slices, heartbeating, and lets go at once
 * when its partition moves or the sender stops.
 */

/** Sleeps `ms` in pieces of at most 1 s, heartbeating between them. */
export async function sleepHeartbeating(deps: SenderDeps, context: HandlerContext, ms: number): Promise<void> {
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
 * A paced notification's batch leaves no sooner than this instance's share
 * of the pace allows, and a campaign's batch no sooner than its project's
 * budget allows (control/send-pace.ts): a sender catching up a backlog
 * sends it at the rate, not at once. It heartbeats while it waits; a pause,
 * cancel or deadline is checked after the wait.
 */
export async function atPace(deps: SenderDeps, pacer: { notifications: SendPacer; projects: SendPacer }, batch: DeliveryBatchV2, context: HandlerContext): Promise<void> {
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
export async function whilePaused(deps: SenderDeps, batch: DeliveryBatchV2, context: HandlerContext): Promise<void> {
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
