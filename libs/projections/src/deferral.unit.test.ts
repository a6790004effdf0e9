import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type DeliveryReportedV2, type HeraldEvent } from '@herald/events';
import { type DeliveryLedgerDocument, deliveryLedgerProjection, evolveNotification, foldCounts, ledgerCounts, type NotificationDocument, notificationReportsProjection, outcomesOver, receiptRows, sumCounts } from '@herald/read-models';
import { foldRecords } from './apply-projection.ts';
import { foldWithCounts } from './apply-counted.ts';

const context = { project_id: 'p' };
type Results = DeliveryReportedV2['data']['results'];
const reported = (batch: string, results: Results, settles = false) =>
  createEvent('DeliveryReported', { notification_id: 'n1', batch_id: batch, provider: 'apns', results, ...(settles ? { settles_deferral: true } : {}) }, context);
const records = (events: HeraldEvent[]) => events.map((event, offset) => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset }));

const rule = 'cap 1/3600s per user';
const until = '2026-01-11T07:00:00.000Z';
const events: HeraldEvent[] = [
  createEvent('NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: ['news'] }, context),
  createEvent('NotificationDispatched', { notification_id: 'n1', targeted: { apns: 4, fcm: 0 }, batches: { apns: 3, fcm: 0 } }, context),
  reported('n1:apns:0:0', [{ device_id: 'a', outcome: 'delivered', attempts: 1 }]),
  reported('n1:apns:0:1', [{ device_id: 'b', outcome: 'capped', reason: 'FrequencyCap', rule }]),
  reported('n1:apns:0:2', [
    { device_id: 'c', outcome: 'deferred', reason: 'QuietHours', rule: 'quiet 22:00-08:00 Europe/Paris', until },
    { device_id: 'd', outcome: 'deferred', reason: 'QuietHours', rule: 'quiet 22:00-08:00 Europe/Paris', until },
  ]),
];
const released = reported(
  'n1:apns:0:2',
  [
    { device_id: 'c', outcome: 'delivered', attempts: 1 },
    { device_id: 'd', outcome: 'failed', reason: 'Unregistered', attempts: 1 },
  ],
  true,
);

function fold(all: HeraldEvent[]) {
  const once = foldRecords(deliveryLedgerProjection, records(all), new Map<string, DeliveryLedgerDocument>());
  // A replay changes nothing.
  expect(foldRecords(deliveryLedgerProjection, records(all), once).size).toBe(0);
  const notification = records(all).reduce<NotificationDocument | undefined>((state, record) => evolveNotification(state, record), undefined);
  return { ledger: once, notification: notification! };
}

describe('capped and deferred outcomes', () => {
  it('counts capped as settled and deferred as not yet; the receipts show the rule and the time', () => {
    const { ledger, notification } = fold(events);
    expect(notification.status).toBe('sending');
    expect(notification.counts).toMatchObject({ targeted: 4, sent: 1, delivered: 1, capped: 1, deferred: 2 });
    expect(notification.counts).toEqual({ targeted: 4, ...ledgerCounts(ledger.values()) });
    expect(receiptRows(ledger.get('n1:apns:0:2')!).map(({ device_id, outcome, rule: applied, until: at }) => ({ device_id, outcome, rule: applied, until: at }))).toEqual([
      { device_id: 'c', outcome: 'deferred', rule: 'quiet 22:00-08:00 Europe/Paris', until },
      { device_id: 'd', outcome: 'deferred', rule: 'quiet 22:00-08:00 Europe/Paris', until },
    ]);
  });

  it("replaces a deferred batch's lines with its release's outcomes, once, in counts and receipts alike", () => {
    const { ledger, notification } = fold([...events, released, released]);
    expect(notification.status).toBe('sent');
    expect(notification.counts).toMatchObject({ targeted: 4, sent: 3, delivered: 2, failed: 1, capped: 1, deferred: 0 });
    expect(notification.counts).toEqual({ targeted: 4, ...ledgerCounts(ledger.values()) });
    expect(ledger.get('n1:apns:0:2')!.devices.map((device) => device.outcome)).toEqual(['delivered', 'failed']);
    expect(ledger.get('n1:apns:0:2')!.tally).toEqual({ delivered: 1, failed: 1 });
  });

  it('counts a deferred batch in the project outcomes once, when it is released', () => {
    const { deltas } = foldWithCounts(notificationReportsProjection, records([...events, released, released]), new Map());
    const sums = sumCounts([...foldCounts(new Map(), deltas).values()]);
    const { totals } = outcomesOver(sums, [...sums.keys()].map((key) => key.replace('outcomes:', '')));
    expect(totals).toMatchObject({ delivered: 2, failed: 1, capped: 1 });
  });
});
