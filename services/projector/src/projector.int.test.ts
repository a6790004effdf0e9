import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, topicIdFor, TOPICS } from '@herald/events';
import { ensureTopics } from '@herald/kafka';
import { ReadModelRegistry } from '@herald/mongo';
import { type DeviceDocument, devicesProjection, type TopicDocument } from '@herald/read-models';
import { runProjection } from '@herald/projections';
import { createTestEnv, waitFor, waitForGroupCaughtUp, type TestEnv } from '@herald/testing';
import { startProjector, type RunningProjector } from './start-projector.ts';

let env: TestEnv;
let projector: RunningProjector;
const project_id = 'project-int';

beforeAll(async () => {
  env = await createTestEnv('projector');
  await ensureTopics(env.kafka, { partitions: 3 });
  projector = await startProjector({ kafka: env.kafka, producer: env.producer, db: env.mongo.db, logger: env.logger });
  await projector.ready;
});
afterAll(async () => {
  await projector?.stop();
  await env?.close();
});

const readModels = () => new ReadModelRegistry(env.mongo.db);
const devices = async () => readModels().collection<DeviceDocument>('devices');
const context = { project_id };

describe('projector', () => {
  it('projects devices and topics from their events', async () => {
    const device_id = deviceIdFor(project_id, 'tok-a');
    const topic_id = topicIdFor(project_id, 'news');
    await env.producer.publish([
      createEvent('TopicCreated', { topic_id, name: 'news' }, context),
      createEvent('DeviceRegistered', { device_id, token: 'tok-a', platform: 'ios', metadata: { plan: 'free' }, topic_ids: [topic_id] }, context),
      createEvent('MetadataUpdated', { device_id, set: { plan: 'pro' }, unset: [] }, context),
    ]);
    const device = await waitFor('device tok-a with plan pro', async () => {
      const doc = await (await devices()).findOne({ _id: device_id });
      return doc?.metadata.plan === 'pro' ? doc : undefined;
    });
    expect(device).toMatchObject({ project_id, token: 'tok-a', platform: 'ios', status: 'active', topics: [topic_id] });
    const topics = await readModels().collection<TopicDocument>('topics');
    const topic = await waitFor('topic news', () => topics.findOne({ _id: topic_id }).then((doc) => doc ?? undefined));
    expect(topic).toMatchObject({ project_id, name: 'news' });
  });

  it('dead-letters a malformed record and keeps projecting what follows it', async () => {
    const device_id = deviceIdFor(project_id, 'tok-after-garbage');
    await env.producer.publishRaw([
      { topic: env.kafka.topic(TOPICS.deviceEvents), messages: [{ key: device_id, value: '{"type":"DeviceRegistered","data":{}}' }] },
    ]);
    await env.producer.publish([createEvent('DeviceRegistered', { device_id, token: 'tok-after-garbage', platform: 'android' }, context)]);
    const collection = await devices();
    await waitFor('device registered after the malformed record', () => collection.findOne({ _id: device_id }).then((doc) => doc ?? undefined));
  });

  it('replaying the topic from the beginning changes nothing', async () => {
    const collection = await devices();
    const before = await collection.find({}).sort({ _id: 1 }).toArray();
    expect(before.length).toBeGreaterThan(0);
    // A second consumer group over the same collection re-applies every event already applied.
    const active = await readModels().active('devices');
    const replay = { ...active, group: 'herald.projector.devices.replay-check' };
    const replayer = await runProjection({ ...env, db: env.mongo.db }, devicesProjection, replay);
    try {
      await replayer.ready;
      await waitForGroupCaughtUp(env.kafka, replay.group, TOPICS.deviceEvents);
    } finally {
      await replayer.stop();
    }
    expect(await collection.find({}).sort({ _id: 1 }).toArray()).toEqual(before);
  });
});
