import { TOPICS } from '@herald/events';
import { withLogAdmin, type HeraldKafka } from '@herald/kafka';
import { readModelVersion } from '@herald/mongo';
import { waitFor } from './wait-for.ts';

/** Waits until a consumer group has committed the end offset of every partition of a topic (logical names). */
export async function waitForGroupCaughtUp(kafka: HeraldKafka, logicalGroup: string, logicalTopic: string, timeoutMs = 30_000): Promise<void> {
  await withLogAdmin(kafka, async (admin) => {
    const topic = kafka.topic(logicalTopic);
    const ends = await admin.ends(topic);
    await waitFor(
      `group ${logicalGroup} to reach the end of ${logicalTopic}`,
      async () => {
        const committed = await admin.committed(kafka.group(logicalGroup), topic);
        return ends.every((end) => end.high === end.low || (committed.get(end.partition) ?? -1) >= end.high);
      },
      timeoutMs,
    );
  });
}

/**
 * Waits until the delivery ledger (the receipts) has applied every
 * notification event written so far. The receipts are a projection of their
 * own: they agree with a notification's counts once both have caught up
 * (README, "Following a notification"), not necessarily the moment the
 * counts show an outcome.
 */
export async function waitForReceiptsCaughtUp(kafka: HeraldKafka, timeoutMs = 30_000): Promise<void> {
  await waitForGroupCaughtUp(kafka, readModelVersion('delivery_ledger', 1).group, TOPICS.notificationEvents, timeoutMs);
}
