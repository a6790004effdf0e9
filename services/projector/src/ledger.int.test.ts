import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deliveryBatchId, newId, type DeliveryReportedV2 } from '@herald/events';
import { ensureTopics } from '@herald/kafka';
import { readModelVersion } from '@herald/mongo';
import { type DeliveryLedgerDocument, ledgerCounts, type NotificationDocument } from '@herald/read-models';
import { createTestEnv, waitFor, waitForReceiptsCaughtUp, type TestEnv } from '@herald/testing';
import { startProjector, type RunningProjector } from './start-projector.ts';

let env: TestEnv;
let projector: RunningProjector;
const project_id = 'project-ledger';
const context = { project_id };

beforeAll(async () => {
  env = await createTestEnv('ledger');
  await ensureTopics(env.kafka, { partitions: 3 });
  projector = await startProjector({ kafka: env.kafka, producer: env.producer, db: env.mongo.db, logger: env.logger, models: ['notifications', 'delivery_ledger'] });
  await projector.ready;
}, 60_000);
afterAll(async () => {
  await projector?.stop();
  await env?.close();
});

/** A campaign's reports: `batches` full batches of 500 per provider, every 7th device failed, every 11th invalid. */
function campaignReports(notificationId: string, batches: number): DeliveryReportedV2[] {
  const reports: DeliveryReportedV2[] = [];
  for (const provider of ['apns', 'fcm'] as const) {
    for (let sequence = 0; sequence < batches; sequence += 1) {
      const results = Array.from({ length: 500 }, (_, index) => {
        const n = sequence * 500 + index;
        const outcome = n % 11 === 0 ? 'invalid' : n % 7 === 0 ? 'failed' : 'delivered';
        return { device_id: `${provider}-device-${n}`, outcome, ...(outcome === 'delivered' ? {} : { reason: 'BadDeviceToken' }), attempts: 1 } as const;
      });
      reports.push(createEvent('DeliveryReported', { notification_id: notificationId, batch_id: deliveryBatchId(notificationId, provider, 0, sequence), provider, results }, context));
    }
  }
  return reports;
}

describe('delivery ledger over Kafka and the store', () => {
  it('writes one document per batch, and the notification counts equal the ledger after a batch report is redelivered', async () => {
    const id = newId();
    const batches = 3;
    const reports = campaignReports(id, batches);
    await env.producer.publish([
      createEvent('NotificationRequested', { notification_id: id, title: 't', body: 'b', targets: ['news'] }, context),
      createEvent('NotificationDispatched', { notification_id: id, targeted: { apns: 1500, fcm: 1500 }, batches: { apns: batches, fcm: batches } }, context),
      ...reports,
    ]);
    // A sender that crashed after reporting re-sends the batch and reports it again (a new event, other outcomes).
    const first = reports[1]!;
    const again = createEvent(
      'DeliveryReported',
      { ...first.data, results: first.data.results.map((result) => ({ device_id: result.device_id, outcome: 'failed' as const, reason: 'Timeout', attempts: 2 })) },
      context,
    );
    const deliveredLine = first.data.results.find((result) => result.outcome === 'delivered')!;
    await env.producer.publish([again, createEvent('NotificationOpened', { notification_id: id, device_id: deliveredLine.device_id, batch_id: first.data.batch_id }, context)]);

    const notifications = env.driverDb.collection<NotificationDocument>(readModelVersion('notifications', 1).collection);
    const ledger = env.driverDb.collection<DeliveryLedgerDocument>(readModelVersion('delivery_ledger', 1).collection);
    const notification = await waitFor('the notification completed with its open counted', async () => {
      const doc = await notifications.findOne({ _id: id });
      return doc?.status === 'sent' && doc.counts.opened === 1 ? doc : undefined;
    });
    await waitForReceiptsCaughtUp(env.kafka);

    const docs = await ledger.find({ notification_id: id }).toArray();
    expect(docs.map((doc) => doc._id).sort()).toEqual(reports.map((report) => report.data.batch_id).sort());
    expect(docs.every((doc) => doc.devices.length === 500)).toBe(true);
    const { targeted, ...counted } = notification.counts;
    expect(targeted).toBe(3000);
    expect(counted).toEqual(ledgerCounts(docs));
    expect(counted.sent).toBe(3000);
    // The redelivered report changed nothing: the first report of the batch stands, with its open.
    const batch = docs.find((doc) => doc._id === first.data.batch_id)!;
    expect(batch.devices.map((line) => line.outcome)).toEqual(first.data.results.map((result) => result.outcome));
    expect(batch.devices.find((line) => line.device_id === deliveredLine.device_id)?.opened_at).toBeDefined();
  });
});
