import type { NotificationRequestedV2 } from '@herald/events';
import { dueKey, type Schedule, type ScheduleStore } from '@herald/mongo';
import type { Logger } from '@herald/log';
import { planLocalSlots } from './slots.ts';

export interface HoldDeps {
  schedules: Pick<ScheduleStore, 'hold'>;
  registeredZones(projectId: string): Promise<string[]>;
  defaultTimezone(projectId: string): Promise<string | undefined>;
  maxAgeMs: number;
  logger: Logger;
}

/**
 * Holds a request for later: its body once, and one small schedule at
 * `send_at`, or one per time-zone slot of a local-time send. The zones are
 * every zone the runtime knows plus any the project's devices registered
 * (aliases included); devices without one go with the project's default zone.
 */
export async function holdSchedules(deps: HoldDeps, event: NotificationRequestedV2): Promise<void> {
  const { data } = event;
  const base = { notification_id: data.notification_id, project_id: event.project_id, state: 'pending' as const, created_at: new Date() };
  let schedules: Schedule[];
  if (data.send_at_local === undefined) {
    const dueAt = new Date(data.send_at!);
    schedules = [{ ...base, _id: data.notification_id, due_at: dueAt, due_key: dueKey(dueAt) }];
  } else {
    const registered = await deps.registeredZones(event.project_id);
    const defaultZone = (await deps.defaultTimezone(event.project_id)) ?? 'UTC';
    const slots = planLocalSlots(data.send_at_local, [...Intl.supportedValuesOf('timeZone'), ...registered], defaultZone);
    schedules = slots.map((slot) => ({ ...base, _id: `${data.notification_id}@${slot.index}`, due_at: new Date(slot.at), due_key: dueKey(new Date(slot.at)), slot }));
  }
  const last = Math.max(...schedules.map((schedule) => schedule.due_at.getTime()));
  const request = {
    _id: data.notification_id,
    project_id: event.project_id,
    request: data,
    expires_at: new Date(last + deps.maxAgeMs),
    ...(event.correlation_id === undefined ? {} : { correlation_id: event.correlation_id }),
  };
  await deps.schedules.hold(request, schedules);
  deps.logger.info({ notification_id: data.notification_id, slots: schedules.length, first: schedules[0]?.due_at }, 'send held until its time');
}
