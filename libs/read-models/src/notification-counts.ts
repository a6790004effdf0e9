import { deltasOf, tally, type CountDelta } from './counts.ts';
import type { NotificationDocument, NotificationStatus } from './notification-document.ts';

/** The counters key of a project's notifications by status (one field per status). */
export const NOTIFICATIONS_COUNT_KEY = 'notifications';
/** Test sends are counted apart, so the list's count leaves them out without reading them. */
export const TEST_NOTIFICATIONS_COUNT_KEY = 'notifications_test';

const keyOf = (doc: NotificationDocument) => (doc.test_send === true ? TEST_NOTIFICATIONS_COUNT_KEY : NOTIFICATIONS_COUNT_KEY);

/** What a notification's change adds to its project's counters: one in its status. */
export function notificationCountDeltas(before: NotificationDocument | undefined, after: NotificationDocument | undefined): CountDelta[] {
  const groups = new Map<string, Record<string, number>>();
  if (before !== undefined) tally(groups, keyOf(before), before.status, -1);
  if (after !== undefined) tally(groups, keyOf(after), after.status, 1);
  const projectId = after?.project_id ?? before?.project_id;
  return projectId === undefined ? [] : deltasOf(projectId, groups);
}

/** How many notifications the counters hold with a status, or in all. */
export function notificationCountOf(counts: Readonly<Record<string, number>> | undefined, status?: NotificationStatus): number {
  if (counts === undefined) return 0;
  const total = status === undefined ? Object.values(counts).reduce((sum, n) => sum + n, 0) : (counts[status] ?? 0);
  return Math.max(0, total);
}
