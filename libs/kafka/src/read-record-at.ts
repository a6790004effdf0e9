import { randomUUID } from 'node:crypto';
import { decodeEvent, type HeraldEvent } from '@herald/events';
import type { HeraldKafka } from './create-kafka.ts';
import { withLogAdmin } from './log-admin.ts';

/**
 * Reads the one record at a position (logical topic): for a process that
 * needs a record its partition's earlier owner consumed (a fan-out task's
 * message is stored once, in its first step). Joins a throwaway group, so it
 * costs a second or two: use it where that is rare.
 */
export async function readRecordAt(kafka: HeraldKafka, topic: string, partition: number, offset: number, timeoutMs = 30_000): Promise<HeraldEvent> {
  const physical = kafka.topic(topic);
  const groupId = kafka.group(`herald.record-reader.${randomUUID()}`);
  const consumer = kafka.client.consumer({ groupId, maxWaitTimeInMs: 100, sessionTimeout: 10_000, heartbeatInterval: 1_000, allowAutoTopicCreation: false });
  try {
    return await new Promise<HeraldEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`record ${topic}[${partition}]@${offset} not read within ${timeoutMs} ms`)), timeoutMs);
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        const partitions = payload.memberAssignment[physical] ?? [];
        consumer.pause([{ topic: physical, partitions: partitions.filter((other) => other !== partition) }]);
        consumer.seek({ topic: physical, partition, offset: String(offset) });
      });
      void (async () => {
        await consumer.connect();
        await consumer.subscribe({ topics: [physical], fromBeginning: false });
        await consumer.run({
          autoCommit: false,
          eachMessage: async (message) => {
            if (message.partition !== partition || Number(message.message.offset) !== offset) return;
            clearTimeout(timer);
            try {
              resolve(decodeEvent(message.message.value));
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          },
        });
      })().catch((error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await withLogAdmin(kafka, (admin) => admin.deleteGroups([groupId])).catch(() => undefined);
  }
}
