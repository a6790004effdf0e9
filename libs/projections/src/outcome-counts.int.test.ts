import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { readCounts, ModelDocuments, type StoreAdapter } from '@herald/mongo';
import { storeAdapter } from '@herald/mongo/testing';
import type { Collection } from 'mongodb';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { applyCounted } from './apply-counted.ts';
import { type CounterDocument, hoursUpTo, type NotificationReportDocument, notificationReportsProjection, outcomesCountKey, outcomesOver } from '@herald/read-models';
import { countedWrites } from './written-documents.ts';

/**
 * The project's outcomes per hour are counters of the notification reports,
 * on the real store: a chunk applied again adds nothing, a batch reported
 * again counts once however many batches came between, and the counters
 * stay a few small documents however many one-device sends a partition
 * reports.
 */
let env: TestEnv;
let reports: Collection<NotificationReportDocument>;
let store: StoreAdapter;
let counters: Collection<CounterDocument>;
/** A collection as the projection writes it (the collections may be wrapped to watch what is sent). */
const docs = <T extends { _id: string }>(collection: Collection<T>) => new ModelDocuments(collection, store);
const project_id = 'outcomes';
const at = '2026-05-01T10:20:00Z';
let offset = 0;

const report = (notification: string, outcome: 'delivered' | 'invalid' = 'delivered', partition = 0): ConsumedEvent => ({
  event: createEvent('DeliveryReported', { notification_id: notification, batch_id: `${notification}:apns:0:0`, provider: 'apns', results: [{ device_id: 'd', outcome }] }, { project_id, now: new Date(at) }),
  topic: TOPICS.notificationEvents,
  partition,
  offset: offset++,
});
const reportsOf = (count: number, from: number) => Array.from({ length: count }, (_, n) => report(`n${from + n}`));

async function counted() {
  const hours = hoursUpTo(Date.parse(at), 24);
  return outcomesOver(await readCounts(counters, project_id, hours.map(outcomesCountKey)), hours).totals;
}

beforeAll(async () => {
  env = await createTestEnv('outcome-counts');
  store = await storeAdapter(env.driverDb);
  reports = env.driverDb.collection<NotificationReportDocument>('notification_reports_outcomes');
  counters = env.driverDb.collection<CounterDocument>('notification_reports_outcomes_counts');
});
afterAll(async () => {
  await env?.close();
});

describe('outcomes per hour, counted from the notification reports', () => {
  it('counts each chunk once, even applied again after a crash before its commit', async () => {
    const first = [...reportsOf(3, 0), report('n3', 'invalid')];
    await applyCounted(notificationReportsProjection, docs(reports), docs(counters), first);
    expect(await counted()).toMatchObject({ delivered: 3, invalid: 1 });
    // Applied again from the store (a fresh consumer: nothing remembered).
    await applyCounted(notificationReportsProjection, docs(reports), docs(counters), first);
    expect(await counted()).toMatchObject({ delivered: 3, invalid: 1 });
  });

  it('counts a batch reported again once, however many batches came between, in a few small counter documents', async () => {
    const written = countedWrites<NotificationReportDocument, CounterDocument>();
    const many = reportsOf(6_000, 10);
    for (let start = 0; start < many.length; start += 500) await applyCounted(notificationReportsProjection, docs(reports), docs(counters), many.slice(start, start + 500), written);
    // n0's batch again at a later offset (its sender's commit was lost), after 6,000 newer batches; n11's from another consumer's memory.
    await applyCounted(notificationReportsProjection, docs(reports), docs(counters), [report('n0'), report('n11')], written);
    await applyCounted(notificationReportsProjection, docs(reports), docs(counters), [report('n12')]);
    expect(await counted()).toMatchObject({ delivered: 6_003, invalid: 1, opened: 0 });
    const stored = await counters.find({ project_id }).toArray();
    expect(stored.map((doc) => doc.key)).toEqual([outcomesCountKey('2026-05-01T10')]);
    expect(JSON.stringify(stored).length).toBeLessThan(1_000);
  });
});
