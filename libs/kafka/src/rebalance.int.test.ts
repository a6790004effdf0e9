import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deadLetterTopic, deviceIdFor, TOPICS } from '@herald/events';
import { isRebalance } from '@herald/errors';
import { createTestEnv, waitFor, type TestEnv } from '@herald/testing';
import { ensureTopics } from './ensure-topics.ts';
import { topicEnds } from './offsets.ts';
import { runConsumer, type RunningConsumer } from './run-consumer.ts';
import type { ConsumedEvent } from './process-chunk.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv('rebalance');
  await ensureTopics(env.kafka, { partitions: 2 });
});
afterAll(async () => {
  await env.close();
});

const TOTAL = 40;
const tokenOf = ({ event }: ConsumedEvent) => (event.type === 'DeviceRegistered' ? event.data.token : event.type);

describe('a rebalance during a long handler', () => {
  it('abandons the chunk uncommitted and its new owner handles it: nothing lost, nothing dead-lettered', async () => {
    const tokens = Array.from({ length: TOTAL }, (_, index) => `member-${index}`);
    await env.producer.publish(tokens.map((token) => createEvent('DeviceRegistered', { device_id: deviceIdFor('p', token), token, platform: 'ios' }, { project_id: 'p' })));

    const completed = new Set<string>();
    let longHandlerStarted = false;
    let sawRebalance = false;
    let first = true;
    const consumers: RunningConsumer[] = [];
    const spec = {
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'rebalance-group',
      topics: [TOPICS.deviceEvents],
      logger: env.logger,
      sessionTimeoutMs: 10_000,
    };
    try {
      consumers.push(
        await runConsumer({
          ...spec,
          handle: async (records, context) => {
            if (first) {
              // A long handler (a big fan-out): it heartbeats until the group tells it the partition moved.
              first = false;
              longHandlerStarted = true;
              for (let i = 0; i < 150; i += 1) {
                try {
                  await context.heartbeat();
                } catch (error) {
                  sawRebalance = isRebalance(error);
                  throw error;
                }
                await sleep(200);
              }
            }
            for (const record of records) completed.add(tokenOf(record));
          },
        }),
      );
      await waitFor('the first consumer inside its long handler', () => longHandlerStarted, 30_000);
      // A second member joins: the group rebalances while the first is still handling.
      consumers.push(await runConsumer({ ...spec, handle: async (records) => void records.forEach((record) => completed.add(tokenOf(record))) }));
      await waitFor('every record handled after the rebalance', () => tokens.every((token) => completed.has(token)), 60_000);
      expect(sawRebalance).toBe(true);
      const letters = await topicEnds(env.kafka, deadLetterTopic(TOPICS.deviceEvents, 'rebalance-group'));
      expect(letters.reduce((sum, end) => sum + end.high - end.low, 0)).toBe(0);
    } finally {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
    }
  }, 120_000);
});
