import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS } from '@herald/events';
import { createTestEnv, waitFor, type TestEnv } from '@herald/testing';
import { ensureTopics } from './ensure-topics.ts';
import { runConsumer } from './run-consumer.ts';
import { TransactionalProducer } from './transactional-producer.ts';
import { withLogAdmin } from './log-admin.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv('transactions');
  await ensureTopics(env.kafka, { partitions: 2 });
});
afterAll(async () => {
  await env.close();
});

const registered = (token: string) => createEvent('DeviceRegistered', { device_id: deviceIdFor('p', token), token, platform: 'ios' }, { project_id: 'p' });

describe('TransactionalProducer', () => {
  it('writes records and commits a group position together, also when commits overlap', async () => {
    const producer = new TransactionalProducer(env.kafka, { transactionalId: 'test-writer', groupId: 'test-reader' });
    try {
      await Promise.all([
        producer.commit([{ event: registered('a'), partition: 0 }], [{ topic: TOPICS.topicEvents, partition: 0, next: 5 }]),
        producer.commit([{ event: registered('b'), partition: 1 }], [{ topic: TOPICS.topicEvents, partition: 1, next: 3 }]),
      ]);
      await producer.commit([{ event: registered('c') }], [{ topic: TOPICS.topicEvents, partition: 0, next: 7 }]);
    } finally {
      await producer.disconnect();
    }
    const committed = await withLogAdmin(env.kafka, (admin) => admin.committed(env.kafka.group('test-reader'), env.kafka.topic(TOPICS.topicEvents)));
    expect(Object.fromEntries(committed)).toEqual({ 0: 7, 1: 3 });
    const seen: string[] = [];
    const consumer = await runConsumer({
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'committed-reader',
      topics: [TOPICS.deviceEvents],
      logger: env.logger,
      handle: async (records) => void seen.push(...records.map(({ event }) => (event.type === 'DeviceRegistered' ? event.data.token : event.type))),
    });
    try {
      await waitFor('three committed records read', () => seen.length === 3);
      expect(seen.sort()).toEqual(['a', 'b', 'c']);
    } finally {
      await consumer.stop();
    }
  });
});
