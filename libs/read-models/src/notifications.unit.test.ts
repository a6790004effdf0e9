import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type HeraldEvent } from '@herald/events';
import type { NotificationDocument } from './notification-document.ts';
import { audienceEstimateOf, evolveNotification, HELD_SEND_DEVICES, holdNotification } from './notifications.ts';

const context = { project_id: 'p' };
const at = (iso: string) => ({ ...context, now: new Date(iso) });
const requested = createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'] }, context);
const dispatched = createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 2, fcm: 1 }, batches: { apns: 1, fcm: 1 } }, context);
const reported = (batch: string, provider: 'apns' | 'fcm', results: Array<{ device_id: string; outcome: 'delivered' | 'failed' | 'invalid' | 'cancelled' }>) =>
  createEvent('DeliveryReported', { notification_id: 'n1', batch_id: batch, provider, results }, context);

function project(events: HeraldEvent[]): NotificationDocument | undefined {
  const records = events.map((event, offset) => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset }));
  const once = records.reduce<NotificationDocument | undefined>((state, record) => evolveNotification(state, record), undefined);
  // Replaying everything changes nothing.
  expect(records.reduce<NotificationDocument | undefined>((state, record) => evolveNotification(state, record), once)).toEqual(once);
  return once;
}

describe('evolveNotification', () => {
  it('goes queued → sending → sent as outcomes arrive, counting per provider, with timestamps', () => {
    expect(project([requested])).toMatchObject({ status: 'queued' });
    expect(project([requested])).not.toHaveProperty('dispatched_at');
    expect(project([requested, dispatched])).toMatchObject({ status: 'sending', counts: { targeted: 3 }, dispatched_at: dispatched.occurred_at });
    const last = reported('n1:fcm:0', 'fcm', [{ device_id: 'c', outcome: 'failed' }]);
    const done = project([
      requested,
      dispatched,
      reported('n1:apns:0', 'apns', [
        { device_id: 'a', outcome: 'delivered' },
        { device_id: 'b', outcome: 'invalid' },
      ]),
      last,
    ]);
    expect(done).toMatchObject({
      status: 'sent',
      finished_at: last.occurred_at,
      counts: { targeted: 3, sent: 3, delivered: 1, invalid: 1, failed: 1, cancelled: 0, opened: 0 },
      by_provider: { apns: { targeted: 2, sent: 2, delivered: 1, invalid: 1 }, fcm: { targeted: 1, sent: 1, failed: 1 } },
    });
  });

  it('keeps the request as sent: push options and schedule', () => {
    const withOptions = createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'], badge: 3, data: { k: 'v' }, priority: 'high' }, context);
    expect(project([withOptions])?.options).toEqual({ badge: 3, data: { k: 'v' }, priority: 'high' });
    expect(project([requested])).not.toHaveProperty('options');
  });

  it('is scheduled while send_at is ahead of the request, and for a local-time send', () => {
    const later = createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'], send_at: '2026-12-01T09:00:00Z' }, at('2026-11-30T09:00:00Z'));
    expect(project([later])?.status).toBe('scheduled');
    const past = createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'], send_at: '2026-11-01T09:00:00Z' }, at('2026-11-30T09:00:00Z'));
    expect(project([past])?.status).toBe('queued');
    const local = createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'], send_at_local: '2026-12-01T09:00' }, context);
    expect(project([local])?.status).toBe('scheduled');
  });

  it('is sent only once every time-zone slot is dispatched', () => {
    const slot = (name: string, apns: number) => createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns, fcm: 0 }, batches: { apns: 1, fcm: 0 }, slot: name, slots: 2 }, context);
    const paris = slot('Europe/Paris', 1);
    const first = [requested, paris, reported('n1:apns:0', 'apns', [{ device_id: 'a', outcome: 'delivered' }])];
    expect(project(first)).toMatchObject({ status: 'sending', counts: { targeted: 1, delivered: 1 } });
    // The same slot announced twice counts once.
    expect(project([...first, paris])?.counts.targeted).toBe(1);
    const done = project([...first, slot('America/New_York', 1), reported('n1:apns:1', 'apns', [{ device_id: 'b', outcome: 'delivered' }])]);
    expect(done).toMatchObject({ status: 'sent', counts: { targeted: 2, delivered: 2 } });
  });

  it('is cancelled by a cancel before it finished; cancelled devices count but are not sent', () => {
    const cancel = createEvent('NotificationCancelled', { notification_id: 'n1' }, context);
    const doc = project([requested, dispatched, cancel, reported('n1:apns:0', 'apns', [{ device_id: 'a', outcome: 'delivered' }, { device_id: 'b', outcome: 'cancelled' }])]);
    expect(doc).toMatchObject({ status: 'cancelled', finished_at: cancel.occurred_at, counts: { sent: 1, delivered: 1, cancelled: 1 }, by_provider: { apns: { cancelled: 1 } } });
    // After it was sent, a cancel changes nothing.
    const sent = [requested, dispatched, reported('n1:apns:0', 'apns', [{ device_id: 'a', outcome: 'delivered' }, { device_id: 'b', outcome: 'delivered' }]), reported('n1:fcm:0', 'fcm', [{ device_id: 'c', outcome: 'delivered' }])];
    expect(project([...sent, cancel])?.status).toBe('sent');
  });

  it('is expired by NotificationExpired unless it finished first', () => {
    const expired = createEvent('NotificationExpired', { notification_id: 'n1', reason: 'too old' }, context);
    expect(project([requested, expired])).toMatchObject({ status: 'expired', finished_at: expired.occurred_at });
    expect(project([requested, createEvent('NotificationCancelled', { notification_id: 'n1' }, context), expired])?.status).toBe('cancelled');
  });

  it('counts a batch reported twice (re-sent after a crash) once', () => {
    const batch = reported('n1:apns:0', 'apns', [{ device_id: 'a', outcome: 'delivered' }]);
    const again = reported('n1:apns:0', 'apns', [{ device_id: 'a', outcome: 'delivered' }]);
    expect(project([requested, dispatched, batch, again])?.counts).toMatchObject({ sent: 1, delivered: 1 });
  });

  it('is sent at once when nobody was targeted, and counts opens per provider', () => {
    const none = createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 0, fcm: 0 }, batches: { apns: 0, fcm: 0 } }, context);
    const opened = createEvent('NotificationOpened', { notification_id: 'n1', device_id: 'a', batch_id: 'n1:fcm:0' }, context);
    expect(project([requested, none, opened])).toMatchObject({ status: 'sent', counts: { opened: 1 }, by_provider: { fcm: { opened: 1 }, apns: { opened: 0 } } });
  });
});

describe('steering and expiry', () => {
  const steered = (data: { state?: 'paused' | 'sending'; rate_per_minute?: number }) => createEvent('NotificationSteered', { notification_id: 'n1', ...data }, context);
  const paced = createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'], rate_per_minute: 600 }, context);

  it('is paused until resumed, sending once reports came in even before a paced campaign dispatched, and keeps the rate', () => {
    expect(project([paced])).toMatchObject({ status: 'queued', rate_per_minute: 600 });
    expect(project([paced, steered({ state: 'paused' })])).toMatchObject({ status: 'paused', paused: true });
    expect(project([paced, steered({ state: 'paused' }), steered({ state: 'sending' })])).toMatchObject({ status: 'queued', paused: false });
    const started = [paced, reported('b1', 'apns', [{ device_id: 'd1', outcome: 'delivered' }])];
    expect(project(started)).toMatchObject({ status: 'sending' });
    expect(project([...started, steered({ state: 'paused' }), steered({ rate_per_minute: 1200 })])).toMatchObject({ status: 'paused', rate_per_minute: 1200 });
    expect(project([...started, steered({ state: 'paused' }), steered({ state: 'sending' })])).toMatchObject({ status: 'sending' });
  });

  it('counts expired devices as settled but not sent, and leaves a finished notification alone', () => {
    const expired = createEvent('DeliveryReported', { notification_id: 'n1', batch_id: 'b2', provider: 'fcm', results: [{ device_id: 'd3', outcome: 'expired', reason: 'MaxDurationExceeded' }] }, context);
    const done = project([requested, dispatched, reported('b1', 'apns', [{ device_id: 'd1', outcome: 'delivered' }, { device_id: 'd2', outcome: 'delivered' }]), expired]);
    expect(done).toMatchObject({ status: 'sent', counts: { targeted: 3, sent: 2, delivered: 2, expired: 1 } });
    expect(project([requested, dispatched, reported('b1', 'apns', [{ device_id: 'd1', outcome: 'delivered' }, { device_id: 'd2', outcome: 'delivered' }]), expired, steered({ state: 'paused' })])).toMatchObject({ status: 'sent' });
  });

  it("measures a campaign against its partitions' counted audiences, then against what was dispatched", () => {
    const estimated = (partition: number, devices: number) => createEvent('AudienceEstimated', { notification_id: 'n1', partition, partitions: 2, devices }, context);
    const dispatchedOne = createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 390, fcm: 0 }, batches: { apns: 1, fcm: 0 }, partition: 0, partitions: 2 }, context);
    expect(audienceEstimateOf(project([requested])!)).toBeUndefined();
    const counting = project([requested, estimated(0, 400), estimated(1, 600)])!;
    expect(counting.audience_estimates).toEqual({ 0: 400, 1: 600 });
    expect(audienceEstimateOf(counting)).toBe(1_000);
    // Partition 0 dispatched 390 (devices unregistered meanwhile): its exact count replaces its estimate.
    expect(audienceEstimateOf(project([requested, estimated(0, 400), estimated(1, 600), dispatchedOne])!)).toBe(990);
  });
});

describe('holdNotification', () => {
  const base = project([requested])!;
  const sending = (targeted: number, settled: number, extra: Partial<NotificationDocument> = {}): NotificationDocument => ({
    ...base,
    status: 'sending',
    counts: { ...base.counts, targeted, delivered: settled },
    ...extra,
  });

  it('holds a queued notification and a small send under way: their next change comes soon', () => {
    expect(holdNotification(base)).toBe(true);
    expect(holdNotification(sending(1, 0))).toBe(true);
    expect(holdNotification(sending(HELD_SEND_DEVICES, HELD_SEND_DEVICES - 1))).toBe(true);
  });

  it('writes a campaign from its first report on, a paced send, and anything scheduled, paused or finished', () => {
    expect(holdNotification(sending(0, HELD_SEND_DEVICES + 1))).toBe(false);
    expect(holdNotification(sending(HELD_SEND_DEVICES + 1, 0))).toBe(false);
    expect(holdNotification(sending(1, 0, { rate_per_minute: 600 }))).toBe(false);
    for (const status of ['scheduled', 'paused', 'sent', 'cancelled', 'expired'] as const) expect(holdNotification({ ...base, status })).toBe(false);
  });
});
