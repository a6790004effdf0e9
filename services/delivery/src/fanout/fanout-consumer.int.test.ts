import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, encodeEvent, TOPICS, type DeliveryBatchV1, type HeraldEvent } from '@herald/events';
import { ensureTopics, EventProducer } from '@herald/kafka';
import { ReadModelRegistry } from '@herald/mongo';
import type { DeviceDocument } from '@herald/projections';
import { createTestEnv, waitFor, type TestEnv } from '@herald/testing';
import { startDelivery, type RunningDelivery } from '../start-delivery.ts';
import { deviceDoc } from './test-devices.ts';

/**
 * The fan-out group over real Kafka and FerretDB: campaigns interleave in
 * bounded steps, so a small send is queued while a large one is still
 * going; and 4 KB tokens never make a batch the broker refuses.
 */
let env: TestEnv;
let producer: RecordingProducer;
let delivery: RunningDelivery;
const LARGE = 10_000;
const STEP = 250;
/** The broker's default message.max.bytes. */
const BROKER_LIMIT = 1_048_588;

/** The real producer, noting in order what Kafka acknowledged. */
class RecordingProducer extends EventProducer {
  readonly acknowledged: HeraldEvent[] = [];
  readonly rawTopics: string[] = [];
  /** The work topic each acknowledged batch went to, by batch id. */
  readonly batchTopics = new Map<string, string>();
  override async publish(events: readonly HeraldEvent[], topic?: string): Promise<void> {
    await super.publish(events, topic);
    this.acknowledged.push(...events);
    for (const event of events) if (event.type === 'DeliveryBatch' && topic !== undefined) this.batchTopics.set(event.data.batch_id, topic);
  }
  lanesOf(notificationId: string): string[] {
    return [...new Set(this.batchesOf(notificationId).map((batch) => this.batchTopics.get(batch.data.batch_id) ?? 'unknown'))].sort();
  }
  override publishRaw(topicMessages: Parameters<EventProducer['publishRaw']>[0]): Promise<void> {
    this.rawTopics.push(...topicMessages.map((item) => item.topic));
    return super.publishRaw(topicMessages);
  }
  batchesOf(notificationId: string): DeliveryBatchV1[] {
    return this.acknowledged.filter((event): event is DeliveryBatchV1 => event.type === 'DeliveryBatch' && event.data.notification_id === notificationId);
  }
  dispatchIndex(notificationId: string): number {
    return this.acknowledged.findIndex((event) => event.type === 'NotificationDispatched' && event.data.notification_id === notificationId);
  }
}

async function insertDevices(docs: DeviceDocument[]): Promise<void> {
  const devices = await new ReadModelRegistry(env.mongo.db).collection<DeviceDocument>('devices');
  for (let start = 0; start < docs.length; start += 2_000) await devices.insertMany(docs.slice(start, start + 2_000));
}

function request(projectId: string, notificationId: string, campaign: string) {
  return createEvent('NotificationRequested', { notification_id: notificationId, title: 'Hi', body: 'there', targets: [{ metadata: { campaign } }] }, { project_id: projectId });
}

beforeAll(async () => {
  env = await createTestEnv('fanout-consumer');
  await ensureTopics(env.kafka, { partitions: 2 });
  producer = new RecordingProducer(env.kafka);
  await producer.connect();
  delivery = await startDelivery({ kafka: env.kafka, producer, db: env.mongo.db, logger: env.logger, roles: ['fanout'], credentials: { get: async () => ({}) }, fanoutStepDevices: STEP });
  await delivery.ready;
}, 60_000);
afterAll(async () => {
  await delivery?.stop();
  await producer?.disconnect();
  await env?.close();
});

describe('fan-out consumer', () => {
  it('queues a 10-device send made during a large campaign before the campaign finishes', async () => {
    await insertDevices([
      ...Array.from({ length: LARGE }, (_, n) => deviceDoc('project-large', `large-${n}`, n, { campaign: 'big' })),
      ...Array.from({ length: 10 }, (_, n) => deviceDoc('project-small', `small-${n}`, n, { campaign: 'tiny' })),
    ]);
    await env.producer.publish([request('project-large', 'n-large', 'big')]);
    await waitFor('the large campaign queuing its first batch', () => producer.batchesOf('n-large').length > 0, 60_000);
    await env.producer.publish([request('project-small', 'n-small', 'tiny')]);

    await waitFor('the small send dispatched', () => producer.dispatchIndex('n-small') >= 0, 60_000);
    const largeAtSmallDispatch = new Set(producer.batchesOf('n-large').map((batch) => batch.data.batch_id)).size;
    await waitFor('the large campaign dispatched', () => producer.dispatchIndex('n-large') >= 0, 180_000);

    expect(producer.batchesOf('n-small').flatMap((batch) => batch.data.devices).map((d) => d.token).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `small-${n}`).sort());
    expect(producer.dispatchIndex('n-small')).toBeLessThan(producer.dispatchIndex('n-large'));
    const largeBatches = new Set(producer.batchesOf('n-large').map((batch) => batch.data.batch_id)).size;
    const dispatched = producer.acknowledged[producer.dispatchIndex('n-large')] as Extract<HeraldEvent, { type: 'NotificationDispatched' }>;
    expect(largeBatches).toBe(dispatched.data.batches.apns + dispatched.data.batches.fcm);
    expect(largeBatches).toBeGreaterThanOrEqual((LARGE / STEP) * 2);
    // When the small send was dispatched, the campaign was still going: it did not wait for it. (How far the
    // campaign got meanwhile is a race: on FerretDB the small send's audience query scans every device.)
    expect(largeAtSmallDispatch).toBeLessThan(largeBatches);
    const devices = new Set(producer.batchesOf('n-large').flatMap((batch) => batch.data.devices.map((d) => d.device_id)));
    expect(devices.size).toBe(LARGE);
    // The small send took the express lane, so no sender holds it behind the campaign's batches.
    expect(producer.lanesOf('n-small')).toEqual([TOPICS.deliveriesApnsExpress, TOPICS.deliveriesFcmExpress].sort());
    expect(producer.lanesOf('n-large')).toEqual([TOPICS.deliveriesApns, TOPICS.deliveriesFcm].sort());
  }, 240_000);

  it('queues 1,200 devices with 4,096-character tokens in batches under the broker limit, none dead-lettered', async () => {
    const token = (n: number) => `${'f'.repeat(4_090)}${String(n).padStart(6, '0')}`;
    await insertDevices(Array.from({ length: 1_200 }, (_, n) => deviceDoc('project-tokens', token(n), n, { campaign: 'long-tokens' })));
    await env.producer.publish([request('project-tokens', 'n-tokens', 'long-tokens')]);
    await waitFor('the long-token send dispatched', () => producer.dispatchIndex('n-tokens') >= 0, 120_000);

    const batches = producer.batchesOf('n-tokens');
    expect(batches.flatMap((batch) => batch.data.devices.map((d) => d.token)).sort()).toEqual(Array.from({ length: 1_200 }, (_, n) => token(n)));
    for (const batch of batches) expect(Buffer.byteLength(encodeEvent(batch).value)).toBeLessThan(BROKER_LIMIT - 100_000);
    expect(batches.length).toBeGreaterThan(2); // cut by bytes, not at 500 devices
    expect(producer.rawTopics.filter((topic) => topic.includes('.dlq.'))).toEqual([]);
    expect(producer.acknowledged[producer.dispatchIndex('n-tokens')]).toMatchObject({ data: { targeted: { apns: 600, fcm: 600 } } });
  }, 180_000);
});
