import { fetchSettings, type BulkFetch } from './fetch-settings.ts';
import type { Consumer, ConsumerRunConfig, KafkaMessage, PartitionAssigner, TopicMessages } from 'kafkajs';
import type { HeraldKafka } from './create-kafka.ts';
import { systemClock, type BackoffPolicy } from '@herald/retry';
import { decodeEvent, deadLetterTopic } from '@herald/events';
import { isRebalance } from '@herald/errors';
import type { Logger } from '@herald/log';
import { deadLetterFor, redrivenForAnotherGroup, type SourceRecord } from './dead-letter.ts';
import { classifyKafkaError } from './kafka-errors.ts';
import { chunkEnd, processChunk, type ConsumedEvent, type Letter } from './process-chunk.ts';
import { ensurePlainTopics, retryKafkaSetup } from './ensure-topics.ts';
import type { EventProducer } from './event-producer.ts';
import type { GroupTransactions, Outgoing } from './transactional-producer.ts';
import { PendingPositions } from './interval-commits.ts';
import { crashRestarts } from './crash-restart.ts';
import { untilCommitted } from './until-committed.ts';

export interface ConsumerSpec {
  kafka: HeraldKafka;
  /** Used to write dead letters. */
  producer: EventProducer;
  /** Logical group id and topics; the installation prefix is added here. */
  groupId: string;
  topics: readonly string[];
  /**
   * Handles a chunk of events from one partition, in order. Must be
   * idempotent: a chunk may be redelivered. Long work calls `heartbeat`
   * now and then so the group does not think this consumer died. With
   * `transactions`, it returns the records the chunk produces instead of
   * publishing them: they are written with the chunk's position, at once.
   */
  handle: (records: ConsumedEvent[], context: HandlerContext) => Promise<void | readonly Outgoing[]>;
  /**
   * Exactly once: the records each chunk produces and the group's position
   * after it commit in one transaction of this producer (no auto-commit).
   * Consumers of what it writes read committed records only (kafkajs' default).
   */
  transactions?: GroupTransactions;
  /**
   * Without `transactions`: commit the group's positions at most this often
   * instead of after every chunk (see interval-commits.ts). Only for
   * idempotent handlers: a crash or rebalance redoes up to this many
   * milliseconds of records. Positions are committed on stop.
   */
  commitIntervalMs?: number;
  /**
   * With `commitIntervalMs`: the first offset of a partition (logical topic)
   * that the handler has taken but keeps in memory, unwritten (a projection
   * holding documents about to change again, held-documents.ts). Positions
   * are not committed past it, so a crash or a rebalance reads it again.
   */
  heldFrom?: (topic: string, partition: number) => number | undefined;
  /** Only records whose `type` header is listed are decoded and handled; the rest are passed over undecoded (and committed). */
  types?: ReadonlySet<string>;
  /** The group's partition assignment strategy (default: kafkajs' round robin); every member must use the same. */
  assigner?: PartitionAssigner;
  /** Called with the partitions (logical topic names) this member holds after each join. */
  onAssigned?: (assignment: Readonly<Record<string, readonly number[]>>) => void;
  logger: Logger;
  fromBeginning?: boolean;
  maxChunkSize?: number;
  /** A chunk also ends before the record that would take its values past this many bytes (it always holds one record). */
  maxChunkBytes?: number;
  partitionsConsumedConcurrently?: number;
  /** Back-off between retries of a retriable failure (retried without a cap: infrastructure errors never dead-letter). */
  backoff?: BackoffPolicy;
  /**
   * Fetch in bulk: the broker holds a fetch until it has `minBytes` or
   * `maxWaitMs` passed (default: answer on the first record, wait at most
   * IDLE_FETCH_WAIT_MS when idle). For consumers whose records gain from
   * being handled together (a projection folding a document's events into
   * one write) and that can take `maxWaitMs` of extra delay.
   */
  fetch?: BulkFetch;
  /** Session timeout; handlers that run long must heartbeat within it. */
  sessionTimeoutMs?: number;
  /** Called after each chunk is done (handled or dead-lettered): progress for rebuilds and lag. */
  onChunkDone?: (progress: { topic: string; partition: number; lastOffset: number; count: number }) => void;
}

const HEARTBEAT_WHILE_HANDLING_MS = 3_000;

export interface HandlerContext {
  heartbeat: () => Promise<void>;
  /** False once the chunk's partition is no longer this member's: work not begun is left to its next owner. */
  active?: () => boolean;
}

export interface RunningConsumer {
  /** Resolves when the consumer has joined its group for the first time. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs a consumer group: decodes every record at the boundary, dead-letters
 * what cannot be decoded or handled (with provenance), and marks an offset
 * consumed only after the handler has succeeded for it. Stages: kafkajs
 * fetches, processChunk decodes, handles and dead-letters, this commits.
 * Retriable failures (infrastructure down) are retried with back-off and
 * jitter for as long as they last: the record is not at fault, so it is
 * never dead-lettered for that. A rebalance abandons the chunk uncommitted.
 */
export async function runConsumer(spec: ConsumerSpec): Promise<RunningConsumer> {
  const { kafka } = spec;
  const groupId = kafka.group(spec.groupId);
  const logger = spec.logger.child({ group: groupId });
  const maxChunk = spec.maxChunkSize ?? 500;
  const logicalTopic = new Map(spec.topics.map((topic) => [kafka.topic(topic), topic]));
  const deadLetterTopicOf = (physical: string) => kafka.topic(deadLetterTopic(logicalTopic.get(physical) ?? physical, spec.groupId));
  await ensurePlainTopics(kafka, [...logicalTopic.keys()].map(deadLetterTopicOf));
  kafka.observer.deadLetterTopics?.(spec.topics.map((topic) => deadLetterTopic(topic, spec.groupId)));

  const consumer: Consumer = kafka.client.consumer({
    groupId,
    sessionTimeout: spec.sessionTimeoutMs ?? 15_000,
    heartbeatInterval: 1_000,
    ...fetchSettings(spec.fetch),
    ...(spec.assigner === undefined ? {} : { partitionAssigners: [spec.assigner] }),
  });
  let joined!: () => void;
  const ready = new Promise<void>((resolve) => (joined = resolve));
  const transactions = spec.transactions;
  const pending = transactions === undefined && spec.commitIntervalMs !== undefined ? new PendingPositions() : undefined;
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    pending?.forget();
    spec.onAssigned?.(logicalAssignment(payload.memberAssignment, logicalTopic));
    joined();
  });
  // A fetch that held only transaction markers (or aborted records) never reaches eachBatch: kafkajs moves
  // past it on its own; say so to whoever follows progress.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.batchSize !== 0) return;
    pending?.done(payload.topic, payload.partition, Number(payload.lastOffset));
    spec.onChunkDone?.({ topic: logicalTopic.get(payload.topic) ?? payload.topic, partition: payload.partition, lastOffset: Number(payload.lastOffset), count: 0 });
  });
  const restarts = crashRestarts(consumer, logger);

  const deadLetter = async (letters: readonly Letter[], topic: string) => {
    const now = new Date();
    const target = { topic: deadLetterTopicOf(topic), groupId };
    for (const { record, error } of letters) {
      logger.warn({ err: error, topic, partition: record.partition, offset: record.offset }, 'record dead-lettered');
    }
    const topicMessages: TopicMessages[] = [{ topic: target.topic, messages: letters.map(({ record, error }) => deadLetterFor(record, target, error, now).message) }];
    await spec.producer.publishRaw(topicMessages);
    kafka.observer.deadLettered?.(spec.groupId, logicalTopic.get(topic) ?? topic, letters.length);
  };

  const observeChunk = (records: readonly ConsumedEvent[], topic: string, partition: number, lag: number) => {
    const { consumed, lag: reportLag } = kafka.observer;
    if (consumed !== undefined) {
      const byType = new Map<string, number>();
      for (const { event } of records) byType.set(event.type, (byType.get(event.type) ?? 0) + 1);
      for (const [type, count] of byType) consumed(spec.groupId, topic, type, count);
    }
    reportLag?.(spec.groupId, topic, partition, Math.max(0, lag));
  };

  await consumer.connect();
  // A topic another process created a moment ago may have no leader yet on a
  // busy broker ("does not host this topic-partition"): kafkajs marks that
  // retriable but does not retry a subscribe itself.
  await retryKafkaSetup(() => consumer.subscribe({ topics: [...logicalTopic.keys()], fromBeginning: spec.fromBeginning ?? true }));
  const flush = async () => {
    const heldFrom = spec.heldFrom;
    const positions = pending?.take(heldFrom === undefined ? undefined : (topic, partition) => heldFrom(logicalTopic.get(topic) ?? topic, partition)) ?? [];
    if (positions.length === 0) return;
    try {
      await consumer.commitOffsets(positions);
    } catch (error) {
      // A rebalance under way: the new owner starts from the last commit and redoes the rest.
      logger.warn({ err: error, partitions: positions.length }, 'committing positions failed; their records will be read again');
    }
  };
  const flushTimer = pending === undefined ? undefined : setInterval(() => void flush(), spec.commitIntervalMs);
  flushTimer?.unref();
  const runConfig: ConsumerRunConfig = {
    eachBatchAutoResolve: false,
    autoCommit: transactions === undefined && pending === undefined,
    partitionsConsumedConcurrently: spec.partitionsConsumedConcurrently ?? 1,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const { topic, partition } = batch;
      const logical = logicalTopic.get(topic) ?? topic;
      // The broker's answer that this member lost the partition, once a heartbeat saw it.
      let revoked: Error | undefined;
      const heartbeat = async () => {
        try {
          await payload.heartbeat();
        } catch (raw) {
          const error = classifyKafkaError(raw);
          if (isRebalance(error)) revoked ??= raw instanceof Error ? raw : (error as Error);
          throw error;
        }
      };
      const toSource = (message: KafkaMessage): SourceRecord => ({ topic, partition, offset: message.offset, key: message.key, value: message.value, headers: message.headers, timestamp: message.timestamp });
      const active = () => payload.isRunning() && !payload.isStale() && revoked === undefined;
      const context: HandlerContext = { heartbeat, active };
      for (let start = 0, end: number; start < batch.messages.length; start = end) {
        if (!payload.isRunning() || payload.isStale()) return;
        end = chunkEnd(batch.messages, start, maxChunk, spec.maxChunkBytes);
        const all = batch.messages.slice(start, end);
        // Passed over (and committed): types this group does not handle, and redriven copies meant for another group.
        const chunk = all.filter((message) => (spec.types === undefined || spec.types.has(headerText(message.headers?.type))) && !redrivenForAnotherGroup(message.headers, groupId));
        const produced: Outgoing[] = [];
        // A handler may wait a long time on one query or on retries: keep the group
        // membership alive meanwhile, and learn of a rebalance as soon as it starts.
        const keepAlive = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_WHILE_HANDLING_MS);
        const decoded: ConsumedEvent[] = [];
        let outcome: Awaited<ReturnType<typeof processChunk>> = { kind: 'done', handled: 0, deadLettered: 0 };
        try {
          if (chunk.length > 0) outcome = await processChunk(
            chunk.map(toSource),
            {
              decode: (record) => {
                const consumed = { event: decodeEvent(record.value), topic: logical, partition, offset: Number(record.offset) };
                decoded.push(consumed);
                return consumed;
              },
              handle: async (records) => {
                const out = await spec.handle(records, context);
                if (out !== undefined) produced.push(...out);
              },
              deadLetter: (letters) => deadLetter(letters, topic),
              classify: classifyKafkaError,
              active,
              clock: systemClock,
              onRetry: (error, attempt) => logger.warn({ err: error, attempt, topic, partition }, 'chunk failed for a retriable reason; retrying'),
            },
            spec.backoff,
          );
        } finally {
          clearInterval(keepAlive);
        }
        if (outcome.kind === 'abandoned') {
          logger.warn({ topic, partition, reason: outcome.reason, from: all[0]!.offset }, 'chunk abandoned uncommitted; the partition owner redoes it');
          // kafkajs rejoins the group at once on its own rebalance error (committing only offsets already resolved).
          if (revoked !== undefined) throw revoked;
          if (outcome.reason === 'rebalance') throw outcome.error;
          return;
        }
        // The batch's last offset may be a transaction marker after its last record: the final chunk
        // moves past it, or a reader waiting for the partition's end (a rebuild, lag) waits on.
        const final = end >= batch.messages.length;
        const lastOffset = String(final ? Math.max(Number(batch.lastOffset()), Number(all[all.length - 1]!.offset)) : Number(all[all.length - 1]!.offset));
        if (transactions !== undefined) {
          const position = { topic: logical, partition, next: Number(lastOffset) + 1 };
          // Stopping (Ctrl-C), the chunk in hand is still committed once: a graceful stop re-sends nothing.
          const gate = { owned: () => !payload.isStale() && revoked === undefined, running: () => payload.isRunning() };
          const committed = await untilCommitted(() => transactions.commit(produced, [position]), gate, (error, attempt) => logger.warn({ err: error, attempt, topic, partition }, 'committing a chunk failed; retrying'));
          if (!committed) {
            logger.warn({ topic, partition, from: all[0]!.offset }, 'chunk not committed: the partition moved or the consumer stopped; its next owner redoes it');
            if (revoked !== undefined) throw revoked;
            return;
          }
        }
        payload.resolveOffset(lastOffset);
        observeChunk(decoded, logical, partition, Number(batch.highWatermark) - 1 - Number(lastOffset));
        await payload.heartbeat();
        if (pending !== undefined) {
          if (active()) pending.done(topic, partition, Number(lastOffset));
        } else if (transactions === undefined) await payload.commitOffsetsIfNecessary();
        spec.onChunkDone?.({ topic: logical, partition, lastOffset: Number(lastOffset), count: all.length });
        restarts.progressed();
      }
    },
  };
  await restarts.run(runConfig);

  return {
    ready,
    stop: async () => {
      clearInterval(flushTimer);
      await restarts.stop();
      await flush();
      await consumer.disconnect();
    },
  };
}

function headerText(value: unknown): string {
  return typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString() : '';
}

function logicalAssignment(assignment: Record<string, number[]>, logicalTopic: ReadonlyMap<string, string>): Record<string, number[]> {
  return Object.fromEntries(Object.entries(assignment).map(([topic, partitions]) => [logicalTopic.get(topic) ?? topic, partitions]));
}
