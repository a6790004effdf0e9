import { setTimeout as sleep } from 'node:timers/promises';
import type { Schedule, ScheduleStore } from '@herald/mongo';
import { createEvent, type NotificationDueV1 } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/runtime';

export interface SchedulerDeps {
  schedules: Pick<ScheduleStore, 'earliest' | 'claim' | 'prune'> & Partial<Pick<ScheduleStore, 'onHeld' | 'addMissingDueKeys'>>;
  producer: Pick<EventProducer, 'publish'>;
  clock: Clock;
  logger: Logger;
  /** How soon to look again while due schedules are leased by a scheduler (or more are due than one look takes). */
  pollMs?: number;
  /**
   * The longest a scheduler sleeps when nothing is due: it also wakes at the
   * next due time and whenever this process holds a new schedule. So this
   * bounds only how late a send leaves whose schedule another instance held
   * and then died (kill -9) before its time, or after the schedule clock moved.
   */
  idleMs?: number;
  leaseMs?: number;
  /** Finished schedules older than this are removed (nothing can fire them: the fan-out would find them expired). */
  maxAgeMs: number;
  /** How often finished schedules are removed. */
  pruneEveryMs?: number;
}

/** Schedules read per look. */
const PAGE = 50;

/** The announcement that a schedule is due (pure): the fan-out takes it from the notification's own stream. */
export function dueEvent(schedule: Schedule): NotificationDueV1 {
  return createEvent(
    'NotificationDue',
    { notification_id: schedule.notification_id, fanout_id: schedule._id, due_at: schedule.due_at.toISOString(), ...(schedule.slot === undefined ? {} : { slot: schedule.slot }), ...(schedule.release === undefined ? {} : { release: true }) },
    { project_id: schedule.project_id },
  );
}

/** What one look found: how many it announced, whether due ones are left (leased elsewhere, or past this page), the next due time after them. */
export interface Look {
  fired: number;
  dueLeft: boolean;
  nextDueAt?: number;
}

/**
 * How long to sleep after a look (pure): not at all while a full page was
 * announced, `pollMs` while due schedules are left, otherwise until the next
 * due time, at most `idleMs`.
 */
export function sleepAfter(look: Look, now: number, pollMs: number, idleMs: number): number {
  if (look.dueLeft) return look.fired > 0 ? 0 : pollMs;
  if (look.nextDueAt === undefined) return idleMs;
  return Math.min(idleMs, Math.max(0, look.nextDueAt - now));
}

/**
 * Announces every due schedule once per lease: claim, then NotificationDue.
 * The fan-out marks it fired when it takes the record, so a scheduler that
 * dies after announcing, or whose lease ran out first, costs a repeated
 * announcement that the fan-out drops — never a second send.
 */
export async function fireDue(deps: SchedulerDeps): Promise<Look> {
  const now = deps.clock.now();
  const page = await deps.schedules.earliest(PAGE);
  const due = page.filter((schedule) => schedule.due_at.getTime() <= now);
  let fired = 0;
  let dueLeft = due.length === PAGE;
  for (const { _id } of due) {
    const schedule = await deps.schedules.claim(_id, new Date(), deps.leaseMs ?? 30_000);
    if (schedule === null) {
      dueLeft = true;
      continue;
    }
    await deps.producer.publish([dueEvent(schedule)]);
    deps.logger.info({ notification_id: schedule.notification_id, schedule: schedule._id, due_at: schedule.due_at }, 'scheduled send is due; handed to the fan-out');
    fired += 1;
  }
  const next = page[due.length]?.due_at.getTime();
  return { fired, dueLeft, ...(next === undefined ? {} : { nextDueAt: next }) };
}

/**
 * Fires due schedules until stopped (and now and then removes finished ones),
 * sleeping until the next due time, a new schedule held by this process, or
 * `idleMs`; a store or Kafka blip is logged and tried again after `pollMs`.
 */
export function startScheduler(deps: SchedulerDeps): { stop(): Promise<void> } {
  const pollMs = deps.pollMs ?? 200;
  const idleMs = Math.max(pollMs, deps.idleMs ?? 5_000);
  const abort = new AbortController();
  let wake: AbortController | undefined;
  let plannedAt = Number.POSITIVE_INFINITY;
  const unsubscribe = deps.schedules.onHeld?.((firstDue) => {
    // Held here, due before this scheduler would look again: look now (it sleeps until then).
    if (firstDue.getTime() < plannedAt) wake?.abort();
  });
  let prunedAt = 0;
  const loop = (async () => {
    const added = await deps.schedules.addMissingDueKeys?.().catch((error: unknown) => deps.logger.warn({ err: error }, 'could not key older schedules by due time'));
    if (typeof added === 'number' && added > 0) deps.logger.info({ schedules: added }, 'older pending schedules keyed by due time');
    while (!abort.signal.aborted) {
      let waitMs = pollMs;
      wake = new AbortController();
      try {
        const look = await fireDue(deps);
        const now = deps.clock.now();
        waitMs = sleepAfter(look, now, pollMs, idleMs);
        if (now - prunedAt >= (deps.pruneEveryMs ?? 60_000)) {
          prunedAt = now;
          const removed = await deps.schedules.prune(new Date(now - deps.maxAgeMs), new Date(now));
          if (removed > 0) deps.logger.info({ removed }, 'finished schedules removed');
        }
      } catch (error) {
        deps.logger.warn({ err: error }, 'scheduler look failed; trying again');
      }
      // In the schedule clock's time; a schedule clock that differs from the system's only moves forward in tests, within idleMs.
      plannedAt = deps.clock.now() + waitMs;
      if (waitMs > 0) await sleep(waitMs, undefined, { signal: AbortSignal.any([abort.signal, wake.signal]) }).catch(() => undefined);
      plannedAt = Number.NEGATIVE_INFINITY;
    }
  })();
  return {
    async stop() {
      unsubscribe?.();
      abort.abort();
      await loop;
    },
  };
}
