import { deltasOf, tally, type CountDelta } from './counts.ts';

/** The counters key of a project's devices by platform and status (fields `ios_active`, `android_inactive`, ...). */
export const DEVICES_COUNT_KEY = 'devices';

/** The counters key of a topic's subscribers: its active devices (field `active`). */
export function topicCountKey(topicId: string): string {
  return `topic:${topicId}`;
}

/** A project's devices by platform and status. */
export interface DeviceCounts {
  ios: { active: number; inactive: number };
  android: { active: number; inactive: number };
  web: { active: number; inactive: number };
  huawei: { active: number; inactive: number };
}

/** What the counters read of a device document (devices.ts's DeviceDocument, which evolves with these deltas). */
interface CountedDevice {
  project_id: string;
  platform: string;
  status: string;
  topics: readonly string[];
}

/** What a device's change adds to its project's counters: its platform × status, and its topics' subscribers while active. */
export function deviceCountDeltas<Device extends CountedDevice>(before: Device | undefined, after: Device | undefined): CountDelta[] {
  const groups = new Map<string, Record<string, number>>();
  const add = (doc: CountedDevice, sign: number) => {
    tally(groups, DEVICES_COUNT_KEY, `${doc.platform}_${doc.status}`, sign);
    if (doc.status === 'active') for (const topicId of new Set(doc.topics)) tally(groups, topicCountKey(topicId), 'active', sign);
  };
  if (before !== undefined) add(before, -1);
  if (after !== undefined) add(after, 1);
  const projectId = after?.project_id ?? before?.project_id;
  return projectId === undefined ? [] : deltasOf(projectId, groups);
}

/** The counters read back (summed over partitions) as counts by platform and status. */
export function deviceCountsOf(counts: Readonly<Record<string, number>> | undefined): DeviceCounts {
  const of = (field: string) => Math.max(0, counts?.[field] ?? 0);
  return {
    ios: { active: of('ios_active'), inactive: of('ios_inactive') },
    android: { active: of('android_active'), inactive: of('android_inactive') },
    web: { active: of('web_active'), inactive: of('web_inactive') },
    huawei: { active: of('huawei_active'), inactive: of('huawei_inactive') },
  };
}
