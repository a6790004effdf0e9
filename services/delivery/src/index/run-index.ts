import { DELIVERY_CONSUMERS, TOPICS } from '@herald/events';
import { coPartitionAssigner, runPositionedConsumer, type EventProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { AudienceIndex } from '@herald/audience-index';
import { ProgressWaiters } from './progress-waiters.ts';

/** The roles of the co-partitioned fan-out group: one member applies device-events to the index, the other runs the tasks that read it. */
export function fanoutRoles(kafka: HeraldKafka): Record<'index' | 'tasks', string> {
  return { index: kafka.topic(TOPICS.deviceEvents), tasks: kafka.topic(TOPICS.fanoutTasks) };
}

export interface RunningIndex {
  consumer: RunningConsumer;
  /** Resolves once the index has applied device-events of `partition` up to (not including) `offset`. */
  waitFor: (partition: number, offset: number) => Promise<void>;
  /** Partitions of herald.device-events this instance holds now. */
  owned(): readonly number[];
}

/**
 * Keeps the audience index up to date with the device-events partitions
 * this instance holds in the co-partitioned group: from each partition's
 * checkpoint in the index (the group's committed offsets only show lag), so
 * a restart reads only what it missed and a new partition is built from the
 * log. Each chunk is one SQLite transaction with its checkpoint.
 */
export async function runAudienceIndex(deps: { kafka: HeraldKafka; producer: EventProducer; index: AudienceIndex; instance: string; logger: Logger; onApplied?: (partition: number, next: number, records: number) => void }): Promise<RunningIndex> {
  const { index } = deps;
  const waiters = new ProgressWaiters((partition) => index.next(partition));
  let owned: readonly number[] = [];
  const group = DELIVERY_CONSUMERS.fanoutPartitions;
  const consumer = await runPositionedConsumer({
    kafka: deps.kafka,
    producer: deps.producer,
    groupId: group.group,
    topics: group.topics,
    logger: deps.logger,
    sessionTimeoutMs: 30_000,
    // Every partition at once: a partition rebuilding from the log must not hold back another's tasks.
    partitionsConsumedConcurrently: 64,
    maxChunkSize: 5_000,
    assigner: coPartitionAssigner({ instance: deps.instance, role: 'index', roles: fanoutRoles(deps.kafka), checkpoints: () => index.checkpoints() }),
    position: (_topic, partition) => index.next(partition),
    apply: async (_topic, partition, records, next) => {
      index.applyDevices(partition, records, next);
      deps.onApplied?.(partition, next, records.length);
      waiters.moved(partition);
    },
    onAssigned: (assignment) => {
      owned = assignment[TOPICS.deviceEvents] ?? [];
      // Shows each partition's checkpoint at once (a restart that missed nothing applies no record to report).
      for (const partition of owned) deps.onApplied?.(partition, index.next(partition), 0);
      deps.logger.info({ partitions: owned, checkpoints: Object.fromEntries(owned.map((partition) => [partition, index.next(partition)])) }, 'audience index partitions assigned');
    },
  });
  return { consumer, waitFor: (partition, offset) => waiters.wait(partition, offset), owned: () => owned };
}
