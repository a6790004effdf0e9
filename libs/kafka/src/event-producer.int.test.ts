import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS } from '@herald/events';
import type { AppError } from '@herald/errors';
import { createTestEnv, waitFor, type TestEnv } from '@herald/testing';
import { ensureTopics } from './ensure-topics.ts';
import { runConsumer } from './run-consumer.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv('producer');
  await ensureTopics(env.kafka, { partitions: 1 });
});
afterAll(async () => {
  await env.close();
});

const registered = (token: string) =>
  createEvent('DeviceRegistered', { device_id: deviceIdFor('p', token), token, platform: 'ios' }, { project_id: 'p' });

describe('EventProducer after a failed send', () => {
  it('fails only the caller whose record the broker refuses, permanently, and keeps producing on a fresh producer', async () => {
    const tooLarge = registered('x'.repeat(2 * 1024 * 1024));
    const before = env.producer.generation;
    const [refused, accepted] = await Promise.allSettled([env.producer.publish([tooLarge]), env.producer.publish([registered('fits-1')])]);
    expect(refused.status).toBe('rejected');
    const error = (refused as PromiseRejectedResult).reason as AppError;
    expect(error.code).toBe('KAFKA_RECORD_REJECTED');
    expect(error.retriable).toBe(false);
    expect(accepted.status).toBe('fulfilled');
    // The failed send replaced the kafkajs producer before the next one went out.
    expect(env.producer.generation).toBeGreaterThan(before);

    await env.producer.publish([registered('fits-2')]);
    const seen: string[] = [];
    const consumer = await runConsumer({
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'after-failure',
      topics: [TOPICS.deviceEvents],
      logger: env.logger,
      handle: async (records) => void seen.push(...records.map(({ event }) => (event.type === 'DeviceRegistered' ? event.data.token : event.type))),
    });
    try {
      await waitFor('both records that fit consumed', () => seen.includes('fits-1') && seen.includes('fits-2'));
      expect(seen.some((token) => token.startsWith('xxx'))).toBe(false);
    } finally {
      await consumer.stop();
    }
  });
});
