import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, encodeEvent, TOPICS } from '@herald/events';
import { createTestEnv, waitFor, type TestEnv } from '@herald/testing';
import { ensureTopics } from './ensure-topics.ts';
import { runConsumer } from './run-consumer.ts';
import { TransactionalProducer } from './transactional-producer.ts';
import { withLogAdmin } from './log-admin.ts';
import { partitionForKey } from './partition-for-key.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv('transactions');
  await ensureTopics(env.kafka, { partitions: 2 });
});
afterAll(async () => {
  await env.close();
});

const registered = (token: string) => createEvent('DeviceRegistered', { device_id: deviceIdFor('p', token), token, platform: 'ios' }, { project_id: 'p' });

/** A fault that loses the answer of the first transaction the broker committed, as kafkajs reports the broker going away while it ends. */
function loseFirstAnswer() {
  const fault = {
    lost: 0,
    afterCommit: () => {
      if (fault.lost > 0) return;
      fault.lost += 1;
      throw Object.assign(new Error('Connection error: read ECONNRESET'), { name: 'KafkaJSConnectionError', retriable: true });
    },
  };
  return fault;
}

/**
 * The tokens with this prefix registered on device-events, each as often as
 * it was written: read until an end marker written now on each partition is
 * read, so anything written twice would be read by then.
 */
async function tokensWritten(prefix: string, groupId: string): Promise<string[]> {
  const seen: string[] = [];
  const consumer = await runConsumer({
    kafka: env.kafka,
    producer: env.producer,
    groupId,
    topics: [TOPICS.deviceEvents],
    logger: env.logger,
    handle: async (records) => void seen.push(...records.flatMap(({ event }) => (event.type === 'DeviceRegistered' && event.data.token.startsWith(prefix) ? [event.data.token] : []))),
  });
  try {
    const markers = [0, 1].map((partition) => Array.from({ length: 50 }, (_, n) => `${prefix}end-${n}`).find((token) => partitionForKey(deviceIdFor('p', token), 2) === partition)!);
    await env.producer.publish(markers.map(registered));
    await waitFor('the end markers read', () => markers.every((token) => seen.includes(token)));
    return seen.filter((token) => !markers.includes(token)).sort();
  } finally {
    await consumer.stop();
  }
}

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

describe('TransactionalProducer.start', () => {
  it("ends a killed predecessor's open transaction at once, so read_committed readers are not held until it times out", async () => {
    // The predecessor: the same transactional id, a record written in a transaction it never ends (kill -9),
    // with a minute's timeout so that nothing but fencing ends it within the test.
    const predecessor = env.kafka.client.producer({ transactionalId: env.kafka.group('restarted-writer'), idempotent: true, maxInFlightRequests: 1, transactionTimeout: 60_000 });
    await predecessor.connect();
    const open = await predecessor.transaction();
    const [openToken, laterToken] = ['restart-open', 'restart-later'].map((prefix) => Array.from({ length: 50 }, (_, n) => `${prefix}-${n}`).find((token) => partitionForKey(deviceIdFor('p', token), 2) === 0)!);
    await open.sendBatch({ acks: -1, topicMessages: [{ topic: env.kafka.topic(TOPICS.deviceEvents), messages: [{ ...encodeEvent(registered(openToken!)), partition: 0 }] }] });
    // Written after it on the same partition: a read_committed reader cannot pass the open transaction to reach it.
    await env.producer.publish([registered(laterToken!)]);
    const restarted = new TransactionalProducer(env.kafka, { transactionalId: 'restarted-writer' });
    try {
      await restarted.start();
      expect(await tokensWritten('restart-', 'restarted-check')).toEqual([laterToken]);
    } finally {
      await restarted.disconnect();
      await predecessor.disconnect().catch(() => undefined);
    }
  });
});

describe('TransactionalProducer, a commit whose answer was lost', () => {
  it('does not write the records again when the broker had committed them', async () => {
    const fault = loseFirstAnswer();
    const producer = new TransactionalProducer(env.kafka, { transactionalId: 'in-doubt-writer', groupId: 'in-doubt-reader', faults: fault });
    try {
      // Two callers in the first transaction; a third, later, whose position is not committed yet, is written.
      await Promise.all([
        producer.commit([{ event: registered('doubt-a'), partition: 0 }], [{ topic: TOPICS.topicEvents, partition: 0, next: 11 }]),
        producer.commit([{ event: registered('doubt-b'), partition: 1 }], [{ topic: TOPICS.topicEvents, partition: 1, next: 12 }]),
      ]);
      await producer.commit([{ event: registered('doubt-c'), partition: 0 }], [{ topic: TOPICS.topicEvents, partition: 0, next: 13 }]);
    } finally {
      await producer.disconnect();
    }
    expect(fault.lost).toBe(1);
    const committed = await withLogAdmin(env.kafka, (admin) => admin.committed(env.kafka.group('in-doubt-reader'), env.kafka.topic(TOPICS.topicEvents)));
    expect(Object.fromEntries(committed)).toEqual({ 0: 13, 1: 12 });
    expect(await tokensWritten('doubt-', 'in-doubt-check')).toEqual(['doubt-a', 'doubt-b', 'doubt-c']);
  });
});

describe('TransactionalProducer shared by several groups (forGroup)', () => {
  it("commits each group's positions in the transactions they share, and checks each group's when an answer was lost", async () => {
    const fault = loseFirstAnswer();
    const producer = new TransactionalProducer(env.kafka, { transactionalId: 'shared-writer', faults: fault });
    const first = producer.forGroup('shared-first');
    const second = producer.forGroup('shared-second');
    try {
      await expect(producer.commit([], [{ topic: TOPICS.topicEvents, partition: 0, next: 1 }])).rejects.toThrow('forGroup');
      await Promise.all([
        first.commit([{ event: registered('shared-a'), partition: 0 }], [{ topic: TOPICS.topicEvents, partition: 0, next: 21 }]),
        second.commit([{ event: registered('shared-b'), partition: 1 }], [{ topic: TOPICS.topicEvents, partition: 0, next: 4 }]),
      ]);
      await second.commit([{ event: registered('shared-c'), partition: 1 }], [{ topic: TOPICS.topicEvents, partition: 1, next: 9 }]);
    } finally {
      await producer.disconnect();
    }
    expect(fault.lost).toBe(1);
    const committed = await withLogAdmin(env.kafka, async (admin) => ({
      first: Object.fromEntries(await admin.committed(env.kafka.group('shared-first'), env.kafka.topic(TOPICS.topicEvents))),
      second: Object.fromEntries(await admin.committed(env.kafka.group('shared-second'), env.kafka.topic(TOPICS.topicEvents))),
    }));
    expect(committed.first[0]).toBe(21);
    expect(committed.second).toMatchObject({ 0: 4, 1: 9 });
    // The first transaction's answer was lost after it committed: neither group's records were written again.
    expect(await tokensWritten('shared-', 'shared-check')).toEqual(['shared-a', 'shared-b', 'shared-c']);
  });
});
