import { deltasOf, tally, type CountDelta } from './counts.ts';
import type { NotificationDocument, NotificationStatus } from './notification-document.ts';

/** The counters key of a project's notifications by status (one field per status). */
export const NOTIFICATIONS_COUNT_KEY = 'notifications';

/** What a notification's change adds to its project's counters: one in its status. */
export function notificationCountDeltas(before: NotificationDocument | undefined, after: NotificationDocument | undefined): CountDelta[] {
  const groups = new Map<string, Record<string, number>>();
  if (before !== undefined) tally(groups, NOTIFICATIONS_COUNT_KEY, before.status, -1);
  if (after !== undefined) tally(groups, NOTIFICATIONS_COUNT_KEY, after.status, 1);
  const projectId = after?.project_id ?? before?.project_id;
  return projectId === undefined ? [] : deltasOf(projectId, groups);
}

/** How many notifications the counters hold with a status, or in all. */
export function notificationCountOf(counts: Readonly<Record<string, number>> | undefined, status?: NotificationStatus): number {
  if (counts === undefined) return 0;
  const total = status === undefined ? Object.values(counts).reduce((sum, n) => sum + n, 0) : (counts[status] ?? 0);
  return Math.max(0, total);
}
