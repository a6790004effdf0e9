import { TOPICS, type TopicName } from '@herald/events';
import { atEnd, withLogAdmin, type HeraldKafka } from '@herald/kafka';
import { readModelVersion, type ReadModelName } from '@herald/mongo';
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
        // A commit is a position: past the transaction markers it has passed (libs/kafka caught-up.ts).
        return ends.every((end) => atEnd(committed.get(end.partition) ?? -1, end));
      },
      timeoutMs,
    );
  });
}

/**
 * Waits until a read model's projection (the consumer group of its version
 * 1, which the projector runs unless `herald replay` moved it) has applied
 * every record written to `logicalTopic` before the call.
 *
 * Each read model is a projection of its own and may trail the others: the
 * counts seen on one (a notification's, a report's) say nothing of another
 * (the receipts, the devices, the overview). Within one, a listing's count
 * comes from counters written before the documents (libs/projections
 * apply-counted.ts), so a count can lead the documents it counts. Once its
 * group has caught up, both hold what was written before. The group commits
 * its positions about once a second (PROJECTION_COMMIT_INTERVAL_MS in
 * libs/projections run-projection.ts): this returns up to that long after the
 * records were applied.
 */
export async function waitForProjectionCaughtUp(kafka: HeraldKafka, model: ReadModelName, logicalTopic: TopicName, timeoutMs = 30_000): Promise<void> {
  await waitForGroupCaughtUp(kafka, readModelVersion(model, 1).group, logicalTopic, timeoutMs);
}

/**
 * Waits until the delivery ledger (the receipts) has applied every
 * notification event written so far. The receipts are a projection of their
 * own: they agree with a notification's counts once both have caught up
 * (docs/guides/following-a-notification.md), not necessarily the moment the
 * counts show an outcome.
 */
export async function waitForReceiptsCaughtUp(kafka: HeraldKafka, timeoutMs = 30_000): Promise<void> {
  await waitForProjectionCaughtUp(kafka, 'delivery_ledger', TOPICS.notificationEvents, timeoutMs);
}
