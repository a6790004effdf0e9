import { describe, expect, it } from 'vitest';
import { NOTIFICATIONS_COUNT_KEY, notificationCountDeltas, TEST_NOTIFICATIONS_COUNT_KEY } from './notification-counts.ts';
import type { NotificationDocument } from './notification-document.ts';

const doc = (status: NotificationDocument['status'], test?: true) => ({ _id: 'n', project_id: 'p', status, ...(test === undefined ? {} : { test_send: test }) }) as NotificationDocument;
const keys = (deltas: ReturnType<typeof notificationCountDeltas>) => JSON.stringify(deltas);

describe('notification counters', () => {
  it('count a campaign under the main key and a test send apart, so the list count leaves tests out without reading them', () => {
    expect(keys(notificationCountDeltas(undefined, doc('queued')))).toContain(NOTIFICATIONS_COUNT_KEY);
    expect(keys(notificationCountDeltas(undefined, doc('queued')))).not.toContain(TEST_NOTIFICATIONS_COUNT_KEY);
    expect(keys(notificationCountDeltas(undefined, doc('queued', true)))).toContain(TEST_NOTIFICATIONS_COUNT_KEY);
    expect(keys(notificationCountDeltas(doc('queued', true), doc('sent', true)))).not.toMatch(new RegExp(`"${NOTIFICATIONS_COUNT_KEY}"`));
  });
});
