import { setTimeout as sleep } from 'node:timers/promises';
import { createEvent, type NotificationDueV1 } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/runtime';
import type { Schedule, ScheduleStore } from './schedule-store.ts';

export interface SchedulerDeps {
  schedules: Pick<ScheduleStore, 'due' | 'claim' | 'prune'>;
  producer: Pick<EventProducer, 'publish'>;
  clock: Clock;
  logger: Logger;
  /** How often to look for due schedules: a send leaves within about this after its time. */
  pollMs?: number;
  leaseMs?: number;
  /** Finished schedules older than this are removed (nothing can fire them: the fan-out would find them expired). */
  maxAgeMs: number;
  /** How often finished schedules are removed. */
  pruneEveryMs?: number;
}

/** The announcement that a schedule is due (pure): the fan-out takes it from the notification's own stream. */
export function dueEvent(schedule: Schedule): NotificationDueV1 {
  return createEvent(
    'NotificationDue',
    { notification_id: schedule.notification_id, fanout_id: schedule._id, due_at: schedule.due_at.toISOString(), ...(schedule.slot === undefined ? {} : { slot: schedule.slot }) },
    { project_id: schedule.project_id },
  );
}

/**
 * Announces every due schedule once per lease: claim, then NotificationDue.
 * The fan-out marks it fired when it takes the record, so a scheduler that
 * dies after announcing, or whose lease ran out first, costs a repeated
 * announcement that the fan-out drops — never a second send.
 */
export async function fireDue(deps: SchedulerDeps): Promise<number> {
  let fired = 0;
  for (const due of await deps.schedules.due(new Date(deps.clock.now()), 50)) {
    const schedule = await deps.schedules.claim(due._id, new Date(), deps.leaseMs ?? 30_000);
    if (schedule === null) continue;
    await deps.producer.publish([dueEvent(schedule)]);
    deps.logger.info({ notification_id: schedule.notification_id, schedule: schedule._id, due_at: schedule.due_at }, 'scheduled send is due; handed to the fan-out');
    fired += 1;
  }
  return fired;
}

/** Polls for due schedules until stopped (and now and then removes finished ones); a store or Kafka blip is logged and tried again. */
export function startScheduler(deps: SchedulerDeps): { stop(): Promise<void> } {
  const abort = new AbortController();
  let prunedAt = 0;
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await fireDue(deps);
        const now = deps.clock.now();
        if (now - prunedAt >= (deps.pruneEveryMs ?? 60_000)) {
          prunedAt = now;
          const removed = await deps.schedules.prune(new Date(now - deps.maxAgeMs), new Date(now));
          if (removed > 0) deps.logger.info({ removed }, 'finished schedules removed');
        }
      } catch (error) {
        deps.logger.warn({ err: error }, 'scheduler poll failed; trying again');
      }
      await sleep(deps.pollMs ?? 200, undefined, { signal: abort.signal }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
