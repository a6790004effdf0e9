import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type HeraldEvent } from '@herald/events';
import type { NotificationDocument } from '@herald/mongo';
import { evolveNotification } from './notifications.ts';

const context = { project_id: 'p' };
const requested = createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'] }, context);
const dispatched = createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 2, fcm: 1 }, batches: { apns: 1, fcm: 1 } }, context);
const reported = (batch: string, results: Array<{ device_id: string; outcome: 'delivered' | 'failed' | 'invalid' }>) =>
  createEvent('DeliveryReported', { notification_id: 'n1', batch_id: batch, provider: 'apns', results }, context);

function project(events: HeraldEvent[]): NotificationDocument | undefined {
  const records = events.map((event, offset) => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset }));
  const once = records.reduce<NotificationDocument | undefined>((state, record) => evolveNotification(state, record), undefined);
  // Replaying everything changes nothing.
  expect(records.reduce<NotificationDocument | undefined>((state, record) => evolveNotification(state, record), once)).toEqual(once);
  return once;
}

describe('evolveNotification', () => {
  it('goes accepted → dispatching → completed as outcomes arrive', () => {
    expect(project([requested])?.status).toBe('accepted');
    expect(project([requested, dispatched])).toMatchObject({ status: 'dispatching', counts: { targeted: 3 } });
    const done = project([
      requested,
      dispatched,
      reported('n1:apns:0', [
        { device_id: 'a', outcome: 'delivered' },
        { device_id: 'b', outcome: 'invalid' },
      ]),
      reported('n1:fcm:0', [{ device_id: 'c', outcome: 'failed' }]),
    ]);
    expect(done).toMatchObject({ status: 'completed', counts: { targeted: 3, sent: 3, delivered: 1, invalid: 1, failed: 1, opened: 0 } });
  });

  it('counts a batch reported twice (re-sent after a crash) once', () => {
    const batch = reported('n1:apns:0', [{ device_id: 'a', outcome: 'delivered' }]);
    const again = reported('n1:apns:0', [{ device_id: 'a', outcome: 'delivered' }]);
    expect(project([requested, dispatched, batch, again])?.counts).toMatchObject({ sent: 1, delivered: 1 });
  });

  it('completes at once when nobody was targeted, and counts opens', () => {
    const none = createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 0, fcm: 0 }, batches: { apns: 0, fcm: 0 } }, context);
    const opened = createEvent('NotificationOpened', { notification_id: 'n1', device_id: 'a' }, context);
    expect(project([requested, none, opened])).toMatchObject({ status: 'completed', counts: { opened: 1 } });
  });
});
