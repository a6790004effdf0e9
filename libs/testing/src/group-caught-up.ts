import type { HeraldKafka } from '@herald/kafka';
import { waitFor } from './wait-for.ts';

/** Waits until a consumer group has committed the end offset of every partition of a topic (logical names). */
export async function waitForGroupCaughtUp(kafka: HeraldKafka, logicalGroup: string, logicalTopic: string, timeoutMs = 30_000): Promise<void> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const topic = kafka.topic(logicalTopic);
    const ends = await admin.fetchTopicOffsets(topic);
    await waitFor(
      `group ${logicalGroup} to reach the end of ${logicalTopic}`,
      async () => {
        const [committed] = await admin.fetchOffsets({ groupId: kafka.group(logicalGroup), topics: [topic] });
        return ends.every((end) => {
          if (end.offset === end.low) return true;
          const done = committed?.partitions.find((partition) => partition.partition === end.partition)?.offset;
          return done !== undefined && BigInt(done) >= BigInt(end.offset);
        });
      },
      timeoutMs,
    );
  } finally {
    await admin.disconnect();
  }
}
