import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deadLetterTopic, deviceIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import { AppError } from '@herald/errors';
import { createTestEnv, waitFor, type TestEnv } from '@herald/testing';
import { ensureTopics } from './ensure-topics.ts';
import { runConsumer, type RunningConsumer } from './run-consumer.ts';
import { TransactionalProducer } from './transactional-producer.ts';
import { withLogAdmin } from './log-admin.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv('consumer');
  await ensureTopics(env.kafka, { partitions: 2 });
});
afterAll(async () => {
  await env.close();
});

const registered = (token: string) =>
  createEvent('DeviceRegistered', { device_id: deviceIdFor('p', token), token, platform: 'android' }, { project_id: 'p' });

/** Reads every record of a physical topic from the beginning until `count` arrived. */
async function readAll(topic: string, count: number) {
  const consumer = env.kafka.client.consumer({ groupId: `${env.prefix}reader-${Math.random()}`, maxWaitTimeInMs: 100 });
  const seen: Array<{ key: string | undefined; value: string | undefined; headers: Record<string, string> }> = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
      seen.push({ key: message.key?.toString(), value: message.value?.toString(), headers });
    },
  });
  try {
    await waitFor(`${count} records on ${topic}`, () => seen.length >= count);
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

describe('EventProducer', () => {
  it('acknowledges many concurrent publishes, coalesced into few requests', async () => {
    const events = Array.from({ length: 200 }, (_, index) => registered(`concurrent-${index}`));
    await Promise.all(events.map((event) => env.producer.publish([event])));
    const handled: HeraldEvent[] = [];
    const consumer = await runConsumer({
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'count-all',
      topics: [TOPICS.deviceEvents],
      logger: env.logger,
      handle: async (records) => void handled.push(...records.map((record) => record.event)),
    });
    try {
      await waitFor('200 events consumed', () => handled.filter((event) => event.type === 'DeviceRegistered' && event.data.token.startsWith('concurrent-')).length >= 200);
    } finally {
      await consumer.stop();
    }
  });
});

describe('runConsumer', () => {
  let consumer: RunningConsumer | undefined;
  afterAll(async () => {
    await consumer?.stop();
  });

  it('dead-letters undecodable and failing records with provenance, and keeps going', async () => {
    const good1 = registered('good-1');
    const poison = registered('poison');
    const good2 = registered('good-2');
    const key = good1.stream_id;
    // All share one key, so one partition, so the order below is the order consumed.
    await env.producer.publish([good1]);
    await env.producer.publishRaw([
      { topic: env.kafka.topic(TOPICS.topicEvents), messages: [{ key, value: 'this is not json', headers: { type: 'Garbage' } }] },
    ]);
    await env.producer.publish([poison, good2].map((event) => ({ ...event, stream_id: key })));
    await env.producer.publishRaw([{ topic: env.kafka.topic(TOPICS.topicEvents), messages: [{ key, value: '{"type":"Nope"}' }] }]);

    const handled: string[] = [];
    consumer = await runConsumer({
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'dlq-test',
      topics: [TOPICS.deviceEvents, TOPICS.topicEvents],
      logger: env.logger,
      handle: async (records) => {
        for (const { event } of records) {
          if (event.type === 'DeviceRegistered' && event.data.token === 'poison') {
            throw new AppError('UNPROCESSABLE', 'poison record');
          }
        }
        handled.push(...records.map(({ event }) => (event.type === 'DeviceRegistered' ? event.data.token : event.type)));
      },
    });
    await consumer.ready;
    await waitFor('good records handled', () => handled.includes('good-1') && handled.includes('good-2'));
    expect(handled).not.toContain('poison');

    const deviceLetters = await readAll(env.kafka.topic(deadLetterTopic(TOPICS.deviceEvents, 'dlq-test')), 1);
    expect(deviceLetters).toHaveLength(1);
    expect(JSON.parse(deviceLetters[0]!.value!)).toMatchObject({ data: { token: 'poison' } });
    expect(deviceLetters[0]!.headers).toMatchObject({
      type: 'DeviceRegistered',
      'dlq.source.topic': env.kafka.topic(TOPICS.deviceEvents),
      'dlq.group': env.kafka.group('dlq-test'),
    });
    expect(JSON.parse(deviceLetters[0]!.headers['dlq.error']!)).toEqual([{ name: 'AppError', message: 'poison record', code: 'UNPROCESSABLE' }]);

    const topicLetters = await readAll(env.kafka.topic(deadLetterTopic(TOPICS.topicEvents, 'dlq-test')), 2);
    expect(topicLetters.map((letter) => letter.value)).toEqual(['this is not json', '{"type":"Nope"}']);
    expect(topicLetters.every((letter) => letter.key === key && letter.headers['dlq.source.offset'] !== undefined)).toBe(true);
    expect(JSON.parse(topicLetters[0]!.headers['dlq.error']!)[0]).toMatchObject({ name: 'EventDecodeError', code: 'EVENT_DECODE_FAILED' });
  });
});

describe('runConsumer with commitIntervalMs', () => {
  const committed = () => withLogAdmin(env.kafka, (admin) => admin.committed(env.kafka.group('interval-reader'), env.kafka.topic(TOPICS.deviceEvents)));
  const ends = () => withLogAdmin(env.kafka, (admin) => admin.ends(env.kafka.topic(TOPICS.deviceEvents)));
  const atEnds = async () => {
    const [positions, partitions] = await Promise.all([committed(), ends()]);
    return partitions.every((end) => end.high === end.low || positions.get(end.partition) === end.high);
  };

  it('commits on its interval, reaches the end past a transaction marker, and commits what is left on stop', async () => {
    // Written in transactions: each partition's last record is a commit marker, which no chunk holds.
    const writer = new TransactionalProducer(env.kafka, { transactionalId: 'interval-writer', groupId: 'interval-writer-group' });
    try {
      for (let round = 0; round < 5; round += 1) {
        await writer.commit(Array.from({ length: 20 }, (_, index) => ({ event: registered(`interval-${round}-${index}`) })), []);
      }
    } finally {
      await writer.disconnect();
    }
    const handled = new Set<string>();
    let consumer = await runConsumer({
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'interval-reader',
      topics: [TOPICS.deviceEvents],
      logger: env.logger,
      maxChunkSize: 7,
      commitIntervalMs: 300,
      handle: async (records) => {
        for (const { event } of records) if (event.type === 'DeviceRegistered') handled.add(event.data.token);
      },
    });
    await waitFor('100 records handled', () => [...handled].filter((token) => token.startsWith('interval-')).length === 100);
    await waitFor('positions committed at the ends, markers included', atEnds);

    // More records, then a stop before the interval: the stop commits them.
    for (let index = 0; index < 10; index += 1) await env.producer.publish([registered(`interval-late-${index}`)]);
    await waitFor('late records handled', () => [...handled].filter((token) => token.startsWith('interval-late-')).length === 10);
    await consumer.stop();
    expect(await atEnds()).toBe(true);

    // A new member of the group starts where the stop left: nothing is read again.
    const again: string[] = [];
    consumer = await runConsumer({
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'interval-reader',
      topics: [TOPICS.deviceEvents],
      logger: env.logger,
      commitIntervalMs: 300,
      handle: async (records) => void again.push(...records.map(({ event }) => event.type)),
    });
    await consumer.ready;
    await env.producer.publish([registered('interval-after-restart')]);
    await waitFor('the new record read', () => again.length >= 1);
    await consumer.stop();
    expect(again).toEqual(['DeviceRegistered']);
  });
});

describe('runConsumer after a crash kafkajs does not restart', () => {
  it('runs again and commits the chunk once, instead of leaving the stage stopped', async () => {
    // Records the broker refuses for good (here: once) fail the chunk's commit with a non-retriable error, which
    // kafkajs answers by stopping the consumer for good.
    const writer = new TransactionalProducer(env.kafka, { transactionalId: 'crash-writer', groupId: 'crash-reader' });
    let refusals = 0;
    const transactions = {
      commit: (records: Parameters<TransactionalProducer['commit']>[0], positions: Parameters<TransactionalProducer['commit']>[1]) => {
        if (records.length > 0 && refusals === 0) {
          refusals += 1;
          return Promise.reject(new AppError('KAFKA_RECORD_REJECTED', 'Kafka refused the records (MESSAGE_TOO_LARGE)'));
        }
        return writer.commit(records, positions);
      },
    } as unknown as TransactionalProducer;
    const handled: string[] = [];
    const consumer = await runConsumer({
      kafka: env.kafka,
      producer: env.producer,
      groupId: 'crash-reader',
      topics: [TOPICS.deviceEvents],
      logger: env.logger,
      transactions,
      handle: async (records) => {
        const mine = records.flatMap(({ event }) => (event.type === 'DeviceRegistered' && event.data.token.startsWith('crash-') ? [event.data.token] : []));
        handled.push(...mine);
        return mine.map((token) => ({ event: registered(`copy-of-${token}`), topic: TOPICS.notificationEvents }));
      },
    });
    try {
      await consumer.ready;
      await env.producer.publish([registered('crash-1')]);
      await waitFor('the refused chunk handled again', () => refusals === 1 && handled.length >= 2, 30_000);
      // Handled twice (refused, then again after the restart), written once: the refused transaction wrote nothing.
      expect(handled).toEqual(['crash-1', 'crash-1']);
      await env.producer.publish([registered('crash-2')]);
      await waitFor('the stage goes on with new records', () => handled.includes('crash-2'));
      const copies = await readAll(env.kafka.topic(TOPICS.notificationEvents), 2);
      expect(copies.map((record) => (JSON.parse(record.value!) as { data: { token: string } }).data.token).sort()).toEqual(['copy-of-crash-1', 'copy-of-crash-2']);
    } finally {
      await consumer.stop();
      await writer.disconnect();
    }
  });
});
