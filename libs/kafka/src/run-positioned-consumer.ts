import { IDLE_FETCH_WAIT_MS } from './offsets.ts';
import type { Consumer, KafkaMessage, PartitionAssigner } from 'kafkajs';
import { systemClock } from '@herald/retry';
import { decodeEvent, deadLetterTopic } from '@herald/events';
import type { Logger } from '@herald/log';
import type { HeraldKafka } from './create-kafka.ts';
import { deadLetterFor, redrivenForAnotherGroup, type SourceRecord } from './dead-letter.ts';
import { classifyKafkaError } from './kafka-errors.ts';
import { processChunk, type ConsumedEvent, type Letter } from './process-chunk.ts';
import { ensurePlainTopics, retryKafkaSetup } from './ensure-topics.ts';
import { crashRestarts } from './crash-restart.ts';
import type { EventProducer } from './event-producer.ts';
import type { RunningConsumer } from './run-consumer.ts';

export interface PositionedConsumerSpec {
  kafka: HeraldKafka;
  /** Writes dead letters. */
  producer: EventProducer;
  groupId: string;
  topics: readonly string[];
  logger: Logger;
  assigner?: PartitionAssigner;
  /**
   * The next offset to apply of a partition, from the caller's own
   * checkpoint: the consumer starts there whatever the group committed
   * (the group's offsets are another process's checkpoint).
   */
  position(topic: string, partition: number): number;
  /** Applies the records (in order) and records `next` as the checkpoint, atomically. Records may be empty (a dead-lettered tail). */
  apply(topic: string, partition: number, records: readonly ConsumedEvent[], next: number): Promise<void>;
  onAssigned?: (assignment: Readonly<Record<string, readonly number[]>>) => void;
  maxChunkSize?: number;
  partitionsConsumedConcurrently?: number;
  sessionTimeoutMs?: number;
}

/**
 * Runs a group member whose state lives with the caller (a local index):
 * on every assignment it seeks each partition to the caller's checkpoint,
 * and it hands on records in log order from there (records below the
 * checkpoint, fetched before a seek took effect, are passed over). The
 * seek is made as the assignment arrives, before kafkajs fetches. Undecodable records are
 * dead-lettered with provenance and passed over. The group's committed
 * offsets only show lag.
 */
export async function runPositionedConsumer(spec: PositionedConsumerSpec): Promise<RunningConsumer> {
  const { kafka } = spec;
  const groupId = kafka.group(spec.groupId);
  const logger = spec.logger.child({ group: groupId });
  const logicalTopic = new Map(spec.topics.map((topic) => [kafka.topic(topic), topic]));
  const deadLetterTopicOf = (physical: string) => kafka.topic(deadLetterTopic(logicalTopic.get(physical) ?? physical, spec.groupId));
  await ensurePlainTopics(kafka, [...logicalTopic.keys()].map(deadLetterTopicOf));
  kafka.observer.deadLetterTopics?.(spec.topics.map((topic) => deadLetterTopic(topic, spec.groupId)));
  // Its own client: it may share its group with another member of this process (create-kafka.ts, isolatedClient).
  const consumer: Consumer = (kafka.isolatedClient?.() ?? kafka.client).consumer({
    groupId,
    sessionTimeout: spec.sessionTimeoutMs ?? 15_000,
    heartbeatInterval: 1_000,
    maxWaitTimeInMs: IDLE_FETCH_WAIT_MS,
    ...(spec.assigner === undefined ? {} : { partitionAssigners: [spec.assigner] }),
  });
  // Lag shows in the group's committed offsets; committed by hand, at most once a second per partition (the
  // position that counts is the caller's checkpoint), the last position of a burst when its second is up, so a
  // quiet group's lag reads 0. Not auto-commit: kafkajs' seek with auto-commit on commits at once and can crash
  // on a partition whose committed offsets it has not loaded yet.
  const committedAt = new Map<string, number>();
  const trailing = new Map<string, { next: number; timer: NodeJS.Timeout }>();
  const commitNow = (topic: string, partition: number, next: number) => {
    committedAt.set(`${topic}:${partition}`, Date.now());
    void consumer.commitOffsets([{ topic, partition, offset: String(next) }]).catch(() => undefined);
  };
  const showProgress = (topic: string, partition: number, next: number) => {
    const key = `${topic}:${partition}`;
    const wait = 1_000 - (Date.now() - (committedAt.get(key) ?? 0));
    if (wait <= 0) return commitNow(topic, partition, next);
    const pending = trailing.get(key);
    if (pending !== undefined) {
      pending.next = Math.max(pending.next, next);
      return;
    }
    const timer = setTimeout(() => {
      const latest = trailing.get(key);
      trailing.delete(key);
      if (latest !== undefined) commitNow(topic, partition, latest.next);
    }, wait);
    timer.unref();
    trailing.set(key, { next, timer });
  };
  /** Next offset to hand on, per `topic:partition` (physical), set at every assignment. */
  const expected = new Map<string, number>();
  let joined!: () => void;
  const ready = new Promise<void>((resolve) => (joined = resolve));
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    expected.clear();
    const logical: Record<string, number[]> = {};
    for (const [topic, partitions] of Object.entries(payload.memberAssignment)) {
      const name = logicalTopic.get(topic) ?? topic;
      logical[name] = partitions;
      for (const partition of partitions) {
        const next = spec.position(name, partition);
        expected.set(`${topic}:${partition}`, next);
        consumer.seek({ topic, partition, offset: String(next) });
        // A checkpoint ahead of the group's commit (nothing new to read after a restart) shows as caught up:
        // committed a second after the join has settled, not from inside it.
        committedAt.set(`${topic}:${partition}`, Date.now());
        showProgress(topic, partition, next);
      }
    }
    spec.onAssigned?.(logical);
    joined();
  });
  // A fetch that held only transaction markers (or aborted records) never reaches eachBatch: kafkajs moves
  // past it on its own. Move the checkpoint past it too, or a reader waiting for the partition's end waits on.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.batchSize !== 0) return;
    const key = `${payload.topic}:${payload.partition}`;
    const next = Number(payload.lastOffset) + 1;
    const current = expected.get(key);
    if (current === undefined || next <= current) return;
    expected.set(key, next);
    const logical = logicalTopic.get(payload.topic) ?? payload.topic;
    void spec
      .apply(logical, payload.partition, [], next)
      .then(() => showProgress(payload.topic, payload.partition, next))
      .catch((error: unknown) => logger.warn({ err: error, topic: logical, partition: payload.partition }, 'could not move the checkpoint past transaction markers'));
  });
  const restarts = crashRestarts(consumer, logger);

  await consumer.connect();
  await retryKafkaSetup(() => consumer.subscribe({ topics: [...logicalTopic.keys()], fromBeginning: true }));
  await restarts.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: spec.partitionsConsumedConcurrently ?? 1,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const { topic, partition } = batch;
      const key = `${topic}:${partition}`;
      const logical = logicalTopic.get(topic) ?? topic;
      const next = expected.get(key);
      if (next === undefined || payload.isStale()) return;
      // Records below the checkpoint (fetched before a seek took effect) are passed over. Offsets may have gaps
      // (transaction markers, aborted records), so a batch may start past `next`.
      const messages = batch.messages.filter((message) => Number(message.offset) >= next);
      if (messages.length === 0) return;
      const maxChunk = spec.maxChunkSize ?? 2_000;
      for (let start = 0; start < messages.length; start += maxChunk) {
        if (!payload.isRunning() || payload.isStale()) return;
        const chunk = messages.slice(start, start + maxChunk);
        // The batch's last offset counts the transaction markers after its last record: a reader waiting for
        // the partition's end must see the checkpoint pass them too.
        const final = start + maxChunk >= messages.length;
        const last = final ? Math.max(Number(batch.lastOffset()), Number(chunk[chunk.length - 1]!.offset)) : Number(chunk[chunk.length - 1]!.offset);
        // Redriven copies meant for another group are passed over (the checkpoint still moves past them).
        const outcome = await processChunk(chunk.filter((message) => !redrivenForAnotherGroup(message.headers, groupId)).map((message) => sourceOf(topic, partition, message)), {
          decode: (record) => ({ event: decodeEvent(record.value), topic: logical, partition, offset: Number(record.offset) }),
          handle: (records) => spec.apply(logical, partition, records, records[records.length - 1]!.offset + 1),
          deadLetter: async (letters: readonly Letter[]) => {
            const now = new Date();
            const target = { topic: deadLetterTopicOf(topic), groupId };
            for (const { record, error } of letters) logger.warn({ err: error, topic: logical, partition, offset: record.offset }, 'record dead-lettered');
            await spec.producer.publishRaw([{ topic: target.topic, messages: letters.map(({ record, error }) => deadLetterFor(record, target, error, now).message) }]);
            kafka.observer.deadLettered?.(spec.groupId, logical, letters.length);
          },
          classify: classifyKafkaError,
          active: () => payload.isRunning() && !payload.isStale(),
          clock: systemClock,
          onRetry: (error, attempt) => logger.warn({ err: error, attempt, topic: logical, partition }, 'applying a chunk failed for a retriable reason; retrying'),
        });
        if (outcome.kind === 'abandoned') return;
        // Records handled one by one (after a failure) leave the checkpoint at the last good one: move it past the chunk.
        if (spec.position(logical, partition) < last + 1) await spec.apply(logical, partition, [], last + 1);
        expected.set(key, last + 1);
        payload.resolveOffset(String(last));
        kafka.observer.lag?.(spec.groupId, logical, partition, Math.max(0, Number(batch.highWatermark) - 1 - last));
        await payload.heartbeat();
        showProgress(topic, partition, last + 1);
        restarts.progressed();
      }
    },
  });
  return {
    ready,
    stop: async () => {
      for (const { timer } of trailing.values()) clearTimeout(timer);
      trailing.clear();
      await restarts.stop();
      await consumer.disconnect();
    },
  };
}

function sourceOf(topic: string, partition: number, message: KafkaMessage): SourceRecord {
  return { topic, partition, offset: message.offset, key: message.key, value: message.value, headers: message.headers, timestamp: message.timestamp };
}
