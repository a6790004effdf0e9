import { createEvent, type CampaignCaps } from '@herald/events';
import type { Schedule } from '@herald/mongo';
import type { AdminStore } from '@herald/admin';
import type { Outgoing } from '@herald/kafka';
import { projectSetting } from './project-setting.ts';

/** What a project's settings give a send (pure): its frequency cap and quiet hours (with the project zone for devices without one), or nothing. */
export function capsOf(project: { frequency_cap?: CampaignCaps['frequency_cap']; quiet_hours?: { start: string; end: string }; default_timezone?: string } | null | undefined): CampaignCaps | undefined {
  if (project === null || project === undefined) return undefined;
  const { frequency_cap: cap, quiet_hours: quiet } = project;
  if (cap === undefined && quiet === undefined) return undefined;
  return {
    ...(cap === undefined ? {} : { frequency_cap: cap }),
    ...(quiet === undefined ? {} : { quiet_hours: { start: quiet.start, end: quiet.end, ...(project.default_timezone === undefined ? {} : { timezone: project.default_timezone }) } }),
  };
}

/**
 * The projects' frequency caps and quiet hours (`herald projects caps` /
 * `quiet-hours`), each read at most every 10 s (project-setting.ts): a send
 * costs no store read for them. Sends in flight keep what they started with
 * (their tasks carry it).
 */
export function projectCaps(admins: Pick<AdminStore, 'findProject'>): (projectId: string) => Promise<CampaignCaps | undefined> {
  return projectSetting(admins, capsOf);
}

/** The DeliveryBatch a fired deferral schedule queues (its batch as planned, on the campaign lane). */
export function releasedBatch(schedule: Pick<Schedule, 'project_id' | 'release'> | null): Outgoing | undefined {
  if (schedule?.release === undefined) return undefined;
  const { batch, topic, correlation_id: correlationId } = schedule.release;
  return { event: createEvent('DeliveryBatch', batch, { project_id: schedule.project_id, correlation_id: correlationId }), topic };
}
