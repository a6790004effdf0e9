import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigResourceTypes } from 'kafkajs';
import { TOPIC_SPECS, TOPICS } from '@herald/events';
import { ConfigError } from '@herald/errors';
import { createTestEnv, restartInfra, startOwnInfra, stopBroker, waitFor, type OwnInfra, type TestEnv } from '@herald/testing';
import { describeDurability, ensureTopics } from './ensure-topics.ts';

/**
 * Herald's topics are as durable as configured: created with the replication
 * factor and min.insync.replicas asked for (3/2 by default on a cluster of
 * three brokers), and a start refuses to run, naming the topic, when an
 * existing one is weaker.
 */
describe('topic durability on the one-broker test infra', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv('durability-one');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('creates the topics 1/1 by default and then refuses a start that asks for three copies, naming a topic', async () => {
    await ensureTopics(env.kafka, { partitions: 1 });
    const topics = await describeDurability(env.kafka, [env.kafka.topic(TOPICS.deviceEvents)]);
    expect(topics).toEqual([{ topic: env.kafka.topic(TOPICS.deviceEvents), replicationFactor: 1, minInsyncReplicas: 1 }]);
    const refused = ensureTopics(env.kafka, { partitions: 1, durability: { replicationFactor: 3, minInsyncReplicas: 2 } });
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(`topic ${env.kafka.topic(TOPICS.deviceEvents)} has replication factor 1, weaker than KAFKA_REPLICATION_FACTOR=3`);
    await expect(refused).rejects.toThrow(/refusing to run/);
  });
});

describe('topic durability on a three-broker cluster', () => {
  let infra: OwnInfra;
  let env: TestEnv;
  beforeAll(async () => {
    infra = await startOwnInfra(undefined, { brokers: 3 });
    env = await createTestEnv('durability-three', infra);
    // At once, as a bench or a first deployment does: the metadata may not list every broker yet.
    await ensureTopics(env.kafka, { partitions: 3 });
  }, 180_000);
  afterAll(async () => {
    await env?.close();
    await infra?.close();
  }, 60_000);

  it('runs three brokers whose internal topics keep 3 copies with 2 in sync', async () => {
    expect(infra.kafkaBrokers.split(',')).toHaveLength(3);
    const admin = env.kafka.client.admin();
    await admin.connect();
    try {
      expect((await admin.describeCluster()).brokers.map((broker) => broker.nodeId).sort()).toEqual([1, 2, 3]);
      const names = ['default.replication.factor', 'min.insync.replicas', 'offsets.topic.replication.factor', 'transaction.state.log.replication.factor', 'transaction.state.log.min.isr'];
      const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.BROKER, name: '2', configNames: names }] });
      expect(Object.fromEntries(resources[0]!.configEntries.map((entry) => [entry.configName, entry.configValue]))).toEqual({
        'default.replication.factor': '3',
        'min.insync.replicas': '2',
        'offsets.topic.replication.factor': '3',
        'transaction.state.log.replication.factor': '3',
        'transaction.state.log.min.isr': '2',
      });
    } finally {
      await admin.disconnect();
    }
  });

  it('creates the topics 3/2 by default (even right after the cluster started) and refuses a start once one is weakened, naming it', async () => {
    // A broker answers "does not host this topic-partition" until it has learnt of the new topics.
    const all = await waitFor('the new topics described', () => describeDurability(env.kafka, [TOPICS.deviceEvents, TOPICS.deliveriesApns, TOPICS.notificationEvents].map((name) => env.kafka.topic(name))));
    expect(all.map((topic) => [topic.replicationFactor, topic.minInsyncReplicas])).toEqual([[3, 2], [3, 2], [3, 2]]);

    const weakened = env.kafka.topic(TOPICS.deliveriesApns);
    const admin = env.kafka.client.admin();
    await admin.connect();
    try {
      await admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: weakened, configEntries: [{ name: 'min.insync.replicas', value: '1' }] }] });
    } finally {
      await admin.disconnect();
    }
    // Every broker learns the change from the controller's log a moment later.
    await waitFor('the weakened setting on the brokers', async () => (await describeDurability(env.kafka, [weakened]))[0]?.minInsyncReplicas === 1, 20_000);
    // Each describe may ask another broker: the start is refused once the one it asks has learned the change too.
    const refused = await waitFor(
      'a start refused for the weakened topic',
      () => ensureTopics(env.kafka, { partitions: 3 }).then(() => undefined, (error: unknown) => error as Error),
      20_000,
    );
    expect(refused.message).toContain(`topic ${weakened} has min.insync.replicas=1, weaker than KAFKA_MIN_INSYNC_REPLICAS=2`);
    // Configured lower, the same cluster is accepted.
    await ensureTopics(env.kafka, { partitions: 3, durability: { replicationFactor: 3, minInsyncReplicas: 1 } });
  });

  it('with a broker down, still creates topics with the copies the cluster is configured for', async () => {
    await stopBroker(infra, 3);
    const admin = env.kafka.client.admin();
    await admin.connect();
    try {
      // Listed until its session expires.
      await waitFor('the cluster to list two brokers', async () => (await admin.describeCluster()).brokers.length === 2, 30_000);
      // And to have moved every partition's leadership off it (the transaction coordinators' too): a client started
      // before then is sent to the stopped broker and keeps being refused (seen on a loaded machine).
      await waitFor('no partition led by the stopped broker', async () => {
        // Every topic the cluster lists, its internal ones (__transaction_state, __consumer_offsets) among them.
        const metadata = await admin.fetchTopicMetadata({ topics: await admin.listTopics() });
        return metadata.topics.every((topic) => topic.partitions.every((partition) => partition.leader !== 3));
      }, 60_000);
    } finally {
      await admin.disconnect();
    }
    const fresh = await createTestEnv('durability-down', infra);
    try {
      // Not 1/1 for the two it lists: the third copy waits on the broker that is down (Kafka places it there) and catches up when it returns.
      await ensureTopics(fresh.kafka, { partitions: 3, specs: TOPIC_SPECS.filter((spec) => spec.name === TOPICS.deviceEvents) });
      const created = await waitFor('the new topic described', () => describeDurability(fresh.kafka, [fresh.kafka.topic(TOPICS.deviceEvents)]));
      expect(created.map((topic) => [topic.replicationFactor, topic.minInsyncReplicas])).toEqual([[3, 2]]);
    } finally {
      await fresh.close();
      await restartInfra(infra);
    }
  }, 120_000);
});
