import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, encodeEvent, TOPICS } from '@herald/events';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { deadLetterFor, REDRIVE_HEADERS } from '../dead-letter.ts';
import { ensurePlainTopics, ensureTopics } from '../ensure-topics.ts';
import { readLogToEnd } from '../read-log-to-end.ts';
import { readDeadLetters } from './dead-letter-log.ts';
import { redriveDeadLetters } from './redrive.ts';

let env: TestEnv;
const DLQ = `${TOPICS.deviceEvents}.dlq.herald.test-group`;

beforeAll(async () => {
  env = await createTestEnv('redrive');
  await ensureTopics(env.kafka, { partitions: 2 });
  await ensurePlainTopics(env.kafka, [env.kafka.topic(DLQ)]);
  const event = createEvent('DeviceRegistered', { device_id: deviceIdFor('p', 'poison'), token: 'poison', platform: 'ios' }, { project_id: 'p' });
  const record = encodeEvent(event);
  const letter = deadLetterFor(
    { topic: env.kafka.topic(TOPICS.deviceEvents), partition: 0, offset: '7', key: Buffer.from(String(record.key)), value: Buffer.from(String(record.value)), headers: { type: event.type } },
    { topic: env.kafka.topic(DLQ), groupId: env.kafka.group('herald.test-group') },
    new TypeError('boom'),
    new Date(),
  );
  await env.producer.publishRaw([{ topic: letter.topic, messages: [letter.message] }]);
});
afterAll(async () => {
  await env?.close();
});

const copiesOf = async (ref: string) => (await readLogToEnd(env.kafka, [TOPICS.deviceEvents])).filter((record) => record.headers[REDRIVE_HEADERS.id] === ref);

describe('redriveDeadLetters', () => {
  it('writes a dead letter back once when a second redrive runs to its end while the first is between its read and its write', async () => {
    const [letter] = await readDeadLetters(env.kafka, [DLQ]);
    expect(letter).toBeDefined();
    let secondDone!: Promise<unknown>;
    // The first redrive has read the logs (nothing redriven yet) and waits there; the second starts, reads and writes.
    const first = redriveDeadLetters(env.kafka, { topic: DLQ }, {
      afterRead: async () => {
        secondDone = redriveDeadLetters(env.kafka, { topic: DLQ });
        await secondDone;
      },
    });
    await expect(first).rejects.toThrow(/the redrive was not committed/);
    await expect(secondDone).resolves.toMatchObject({ selected: [expect.objectContaining({ ref: letter!.ref })] });
    expect(await copiesOf(letter!.ref)).toHaveLength(1);

    // And after both, a third finds it redriven.
    const third = await redriveDeadLetters(env.kafka, { topic: DLQ });
    expect(third.selected).toHaveLength(0);
    expect(await copiesOf(letter!.ref)).toHaveLength(1);
  }, 60_000);
});
