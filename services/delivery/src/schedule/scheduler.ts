import { setTimeout as sleep } from 'node:timers/promises';
import { createEvent } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/runtime';
import type { CancellationStore } from '../cancellations.ts';
import type { Schedule, ScheduleStore } from './schedule-store.ts';

export interface SchedulerDeps {
  schedules: ScheduleStore;
  cancellations: Pick<CancellationStore, 'isCancelled'>;
  producer: Pick<EventProducer, 'publish'>;
  clock: Clock;
  logger: Logger;
  /** How often to look for due schedules: a send leaves within about this after its time. */
  pollMs?: number;
  leaseMs?: number;
}

/** The fan-out's step 0 for a due schedule; `requested_at` is the due time, so expiry counts from it. */
export function dueStep(schedule: Schedule) {
  const { request } = schedule;
  return createEvent(
    'FanoutStep',
    { ...request, step: 0, requested_at: schedule.due_at.toISOString(), ...(schedule.slot === undefined ? {} : { slot: schedule.slot }) },
    { project_id: schedule.project_id, correlation_id: schedule.correlation_id },
  );
}

/** Fires every due schedule once: claim, skip if cancelled, hand it to the fan-out, mark it. */
export async function fireDue(deps: SchedulerDeps): Promise<number> {
  let fired = 0;
  for (const due of await deps.schedules.due(new Date(deps.clock.now()), 50)) {
    const schedule = await deps.schedules.claim(due._id, new Date(), deps.leaseMs ?? 30_000);
    if (schedule === null) continue;
    if (await deps.cancellations.isCancelled(schedule.notification_id)) {
      await deps.schedules.mark(schedule._id, 'cancelled');
      deps.logger.info({ notification_id: schedule.notification_id, schedule: schedule._id }, 'scheduled send cancelled before its time; not sent');
      continue;
    }
    await deps.producer.publish([dueStep(schedule)]);
    await deps.schedules.mark(schedule._id, 'fired');
    deps.logger.info({ notification_id: schedule.notification_id, schedule: schedule._id, due_at: schedule.due_at }, 'scheduled send is due; fanning out');
    fired += 1;
  }
  return fired;
}

/** Polls for due schedules until stopped; a store or Kafka blip is logged and tried again on the next poll. */
export function startScheduler(deps: SchedulerDeps): { stop(): Promise<void> } {
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await fireDue(deps);
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
