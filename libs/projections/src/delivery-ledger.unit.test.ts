import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type HeraldEvent } from '@herald/events';
import { type DeliveryLedgerDocument, deliveryLedgerProjection, evolveNotification, ledgerCounts, type NotificationDocument, receiptRows } from '@herald/read-models';
import { foldRecords } from './apply-projection.ts';

const context = { project_id: 'p' };
type Outcome = 'delivered' | 'failed' | 'invalid';
const reported = (batch: string, results: Array<{ device_id: string; outcome: Outcome; reason?: string; attempts?: number }>) =>
  createEvent('DeliveryReported', { notification_id: 'n1', batch_id: batch, provider: 'apns', results }, context);
const opened = (device: string, batch?: string) =>
  createEvent('NotificationOpened', { notification_id: 'n1', device_id: device, ...(batch === undefined ? {} : { batch_id: batch }) }, context);

/** Folds the events into the ledger twice over (the second pass is a full replay) and checks the replay changed nothing. */
function ledger(events: HeraldEvent[]): Map<string, DeliveryLedgerDocument> {
  const records = events.map((event, offset) => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset }));
  const once = foldRecords(deliveryLedgerProjection, records, new Map<string, DeliveryLedgerDocument>());
  expect(foldRecords(deliveryLedgerProjection, records, once).size).toBe(0);
  return once;
}

function notification(events: HeraldEvent[]): NotificationDocument | undefined {
  const records = events.map((event, offset) => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset }));
  const once = records.reduce<NotificationDocument | undefined>((state, record) => evolveNotification(state, record), undefined);
  expect(records.reduce<NotificationDocument | undefined>((state, record) => evolveNotification(state, record), once)).toEqual(once);
  return once;
}

describe('delivery ledger', () => {
  it('writes one document per batch with each device outcome, reason and attempts', () => {
    const docs = ledger([
      reported('n1:apns:0', [
        { device_id: 'a', outcome: 'delivered', attempts: 1 },
        { device_id: 'b', outcome: 'invalid', reason: 'Unregistered', attempts: 1 },
      ]),
      reported('n1:apns:1', [{ device_id: 'c', outcome: 'failed', reason: 'RetryDeadlineExceeded', attempts: 3 }]),
    ]);
    expect([...docs.keys()]).toEqual(['n1:apns:0', 'n1:apns:1']);
    expect(docs.get('n1:apns:0')).toMatchObject({
      project_id: 'p',
      notification_id: 'n1',
      provider: 'apns',
      sequence: 0,
      position: { partition: 0, offset: 0 },
      devices: [
        { device_id: 'a', outcome: 'delivered', attempts: 1 },
        { device_id: 'b', outcome: 'invalid', reason: 'Unregistered', attempts: 1 },
      ],
    });
    expect(docs.get('n1:apns:1')?.devices).toEqual([{ device_id: 'c', outcome: 'failed', reason: 'RetryDeadlineExceeded', attempts: 3 }]);
  });

  it('keeps the first report of a batch reported twice, as the notification counts do', () => {
    const events = [
      createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'] }, context),
      createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 3, fcm: 0 }, batches: { apns: 2, fcm: 0 } }, context),
      reported('n1:apns:0', [
        { device_id: 'a', outcome: 'delivered' },
        { device_id: 'b', outcome: 'delivered' },
      ]),
      // Re-sent after a crash: reported again, with a different outcome for b.
      reported('n1:apns:0', [
        { device_id: 'a', outcome: 'delivered' },
        { device_id: 'b', outcome: 'failed', reason: 'Timeout' },
      ]),
      reported('n1:apns:1', [{ device_id: 'c', outcome: 'invalid' }]),
      opened('a', 'n1:apns:0'),
    ];
    const docs = ledger(events);
    expect(docs.size).toBe(2);
    expect(docs.get('n1:apns:0')?.devices.map((device) => device.outcome)).toEqual(['delivered', 'delivered']);
    const counts = notification(events)?.counts;
    expect(counts).toEqual({ targeted: 3, ...ledgerCounts(docs.values()) });
    expect(counts).toMatchObject({ sent: 3, delivered: 2, invalid: 1, failed: 0, opened: 1 });
  });

  it('marks an open on its device once, and ignores opens naming no batch or an unknown device', () => {
    const docs = ledger([
      reported('n1:apns:0', [
        { device_id: 'a', outcome: 'delivered' },
        { device_id: 'b', outcome: 'delivered' },
      ]),
      opened('a', 'n1:apns:0'),
      opened('a', 'n1:apns:0'),
      opened('b'),
      opened('z', 'n1:apns:0'),
      opened('a', 'n1:apns:9'),
    ]);
    const doc = docs.get('n1:apns:0');
    expect(doc?.devices[0]?.opened_at).toBeDefined();
    expect(doc?.devices[1]?.opened_at).toBeUndefined();
    expect(doc?.position).toEqual({ partition: 0, offset: 1 });
    expect(docs.has('n1:apns:9')).toBe(false);
  });

  it('ignores an event of another project for the same batch id', () => {
    const other = createEvent('NotificationOpened', { notification_id: 'n1', device_id: 'a', batch_id: 'n1:apns:0' }, { project_id: 'q' });
    const docs = ledger([reported('n1:apns:0', [{ device_id: 'a', outcome: 'delivered' }]), other]);
    expect(docs.get('n1:apns:0')?.devices[0]?.opened_at).toBeUndefined();
  });

  it('keeps the partition and sequence the batch id names', () => {
    const docs = ledger([reported('n1:fcm:3:12', [{ device_id: 'a', outcome: 'delivered' }]), reported('n1:apns:7', [{ device_id: 'b', outcome: 'delivered' }])]);
    expect(docs.get('n1:fcm:3:12')).toMatchObject({ partition: 3, sequence: 12 });
    expect(docs.get('n1:apns:7')).toMatchObject({ sequence: 7 });
    expect(docs.get('n1:apns:7')?.partition).toBeUndefined();
  });
});

describe('receiptRows', () => {
  it('expands a batch into one receipt row per device', () => {
    const doc = ledger([
      reported('n1:apns:0', [
        { device_id: 'a', outcome: 'delivered', attempts: 2 },
        { device_id: 'b', outcome: 'failed', reason: 'TooManyRequests', attempts: 3 },
      ]),
      opened('a', 'n1:apns:0'),
    ]).get('n1:apns:0')!;
    const rows = receiptRows(doc);
    expect(rows).toEqual([
      { notification_id: 'n1', batch_id: 'n1:apns:0', provider: 'apns', reported_at: doc.reported_at, device_id: 'a', outcome: 'delivered', attempts: 2, opened_at: doc.devices[0]!.opened_at },
      { notification_id: 'n1', batch_id: 'n1:apns:0', provider: 'apns', reported_at: doc.reported_at, device_id: 'b', outcome: 'failed', reason: 'TooManyRequests', attempts: 3 },
    ]);
    expect(ledgerCounts([doc])).toEqual({ sent: 2, delivered: 1, failed: 1, invalid: 0, cancelled: 0, expired: 0, capped: 0, deferred: 0, opened: 1 });
  });
});
