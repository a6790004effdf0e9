import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, newId, TOPICS, type HeraldEvent } from '@herald/events';
import { ensureTopics, withLogAdmin, type ConsumedEvent } from '@herald/kafka';
import { readModelVersion, readCounts, ModelDocuments, type StoreAdapter } from '@herald/mongo';
import { storeAdapter } from '@herald/mongo/testing';
import type { Collection } from 'mongodb';
import { createTestEnv, waitFor, waitForGroupCaughtUp, type TestEnv } from '@herald/testing';
import { applyCounted } from './apply-counted.ts';
import { type CounterDocument, notificationCountOf, type NotificationDocument, NOTIFICATIONS_COUNT_KEY, notificationsProjection } from '@herald/read-models';
import { runProjection } from './run-projection.ts';
import { countedWrites } from './written-documents.ts';

/**
 * The notifications projection holds a notification about to be sent and
 * writes it once (held-documents.ts), on the real store; and its consumer
 * never commits past a held notification's request, on the real Kafka.
 */
let env: TestEnv;
let notifications: Collection<NotificationDocument>;
let store: StoreAdapter;
let counters: Collection<CounterDocument>;
/** A collection as the projection writes it (the collections may be wrapped to watch what is sent). */
const docs = <T extends { _id: string }>(collection: Collection<T>) => new ModelDocuments(collection, store);
const project_id = 'held';
const context = { project_id };
let nextOffset = 0;

const at = (events: HeraldEvent[]): ConsumedEvent[] => events.map((event) => ({ event, topic: TOPICS.notificationEvents, partition: 0, offset: nextOffset++ }));
const requested = (id: string) => createEvent('NotificationRequested', { notification_id: id, title: 't', body: 'b', targets: [{ device_id: 'd1' }] }, context);
const dispatched = (id: string) => createEvent('NotificationDispatched', { notification_id: id, targeted: { apns: 1, fcm: 0 }, batches: { apns: 1, fcm: 0 } }, context);
const reported = (id: string) => createEvent('DeliveryReported', { notification_id: id, batch_id: `${id}:apns:0`, provider: 'apns', results: [{ device_id: 'd1', outcome: 'delivered' }] }, context);

/** The collection, with every write command it is sent recorded. */
function recorded(collection: Collection<NotificationDocument>, writes: string[], failing = false): Collection<NotificationDocument> {
  return new Proxy(collection, {
    get: (target, key, receiver) => {
      if (key !== 'insertMany' && key !== 'bulkWrite') return Reflect.get(target, key, receiver) as unknown;
      return (...args: unknown[]) => {
        writes.push(String(key));
        if (failing) return Promise.reject(new Error('store went away'));
        return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function countedStatuses() {
  const counts = (await readCounts(counters, project_id, [NOTIFICATIONS_COUNT_KEY])).get(NOTIFICATIONS_COUNT_KEY);
  return { all: notificationCountOf(counts), queued: notificationCountOf(counts, 'queued'), sent: notificationCountOf(counts, 'sent') };
}

async function storedStatuses() {
  const docs = await notifications.find({ project_id }).toArray();
  return { all: docs.length, queued: docs.filter((doc) => doc.status === 'queued').length, sent: docs.filter((doc) => doc.status === 'sent').length };
}

beforeAll(async () => {
  env = await createTestEnv('held-documents');
  store = await storeAdapter(env.driverDb);
  notifications = env.driverDb.collection<NotificationDocument>('notifications_held');
  counters = env.driverDb.collection<CounterDocument>('notifications_held_counts');
});
afterAll(async () => {
  await env?.close();
});

describe('held notifications on the store', () => {
  it('writes a notification requested, dispatched and reported in two chunks with one insert', async () => {
    const written = countedWrites<NotificationDocument, CounterDocument>(1_000);
    const writes: string[] = [];
    const id = newId();
    await applyCounted(notificationsProjection, docs(recorded(notifications, writes)), docs(counters), at([requested(id)]), written, 10_000);
    expect(await notifications.findOne({ _id: id })).toBeNull();
    expect(written.held.has(id)).toBe(true);
    await applyCounted(notificationsProjection, docs(recorded(notifications, writes)), docs(counters), at([dispatched(id), reported(id)]), written, 10_500);
    expect(await notifications.findOne({ _id: id })).toMatchObject({ status: 'sent', counts: { targeted: 1, delivered: 1 } });
    expect(writes).toEqual(['insertMany']);
    expect(written.held.size).toBe(0);
    // The counters counted it all along, and equal the documents once nothing is held.
    expect(await countedStatuses()).toEqual(await storedStatuses());
  });

  it('writes a held notification as it is once its time is up, by an apply with no records', async () => {
    const written = countedWrites<NotificationDocument, CounterDocument>(1_000);
    const id = newId();
    await applyCounted(notificationsProjection, docs(notifications), docs(counters), at([requested(id)]), written, 20_000);
    await applyCounted(notificationsProjection, docs(notifications), docs(counters), [], written, 20_999);
    expect(await notifications.findOne({ _id: id })).toBeNull();
    await applyCounted(notificationsProjection, docs(notifications), docs(counters), [], written, 21_000);
    expect(await notifications.findOne({ _id: id })).toMatchObject({ status: 'queued' });
    // Its report, later, replaces it (it is in the store now).
    const writes: string[] = [];
    await applyCounted(notificationsProjection, docs(recorded(notifications, writes)), docs(counters), at([dispatched(id), reported(id)]), written, 22_000);
    expect(writes).toEqual(['bulkWrite']);
    expect(await notifications.findOne({ _id: id })).toMatchObject({ status: 'sent' });
    expect(await countedStatuses()).toEqual(await storedStatuses());
  });

  it('keeps what it holds through a failed apply, and writes it when the chunk comes again', async () => {
    const written = countedWrites<NotificationDocument, CounterDocument>(1_000);
    const id = newId();
    await applyCounted(notificationsProjection, docs(notifications), docs(counters), at([requested(id)]), written, 30_000);
    const chunk = at([dispatched(id), reported(id)]);
    await expect(applyCounted(notificationsProjection, docs(recorded(notifications, [], true)), docs(counters), chunk, written, 30_100)).rejects.toThrow(/store went away/);
    expect(written.held.get(id)?.doc.status).toBe('queued');
    await applyCounted(notificationsProjection, docs(notifications), docs(counters), chunk, written, 30_200);
    expect(await notifications.findOne({ _id: id })).toMatchObject({ status: 'sent', counts: { delivered: 1 } });
    expect(await countedStatuses()).toEqual(await storedStatuses());
  });
});

describe('held notifications on the log', () => {
  it('commits no position past a held request until it is written, then moves on', async () => {
    await ensureTopics(env.kafka, { partitions: 1 });
    const version = { ...readModelVersion('notifications', 1), collection: 'notifications_held_log', group: 'herald.projector.notifications.held-check' };
    const collection = env.driverDb.collection<NotificationDocument>(version.collection);
    const topic = env.kafka.topic(TOPICS.notificationEvents);
    const applied: number[] = [];
    const consumer = await runProjection({ ...env, db: env.mongo.db }, notificationsProjection, version, { holdMs: 3_000, onChunkDone: ({ lastOffset }) => applied.push(lastOffset) });
    try {
      await consumer.ready;
      const id = newId();
      await env.producer.publish([requested(id)]);
      const end = await withLogAdmin(env.kafka, async (admin) => (await admin.ends(topic)).find((item) => item.partition === 0)!.high);
      const requestOffset = end - 1;
      await waitFor('the request to be applied', async () => applied.some((offset) => offset >= requestOffset) || undefined);
      // Two commit intervals with the request held: the group's position stays at it.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const committed = await withLogAdmin(env.kafka, (admin) => admin.committed(env.kafka.group(version.group), topic));
      expect(committed.get(0) ?? -1).toBeLessThanOrEqual(requestOffset);
      expect(await collection.findOne({ _id: id })).toBeNull();
      // Its time up, it is written (queued: nobody dispatched it) and the position moves past it.
      await waitFor('the held request to be written', async () => (await collection.findOne({ _id: id })) ?? undefined, 10_000);
      expect(await collection.findOne({ _id: id })).toMatchObject({ status: 'queued' });
      await waitForGroupCaughtUp(env.kafka, version.group, TOPICS.notificationEvents, 10_000);
    } finally {
      await consumer.stop();
    }
  });
});
