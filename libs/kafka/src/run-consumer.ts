import type { Consumer, KafkaMessage, TopicMessages } from 'kafkajs';
import type { HeraldKafka } from './create-kafka.ts';
import pRetry from 'p-retry';
import { decodeEvent, deadLetterTopic, type HeraldEvent } from '@herald/events';
import { isRetriable } from '@herald/errors';
import type { Logger } from '@herald/log';
import { deadLetterFor } from './dead-letter.ts';
import { ensurePlainTopics, KAFKA_SETUP_RETRY } from './ensure-topics.ts';
import type { EventProducer } from './event-producer.ts';

/** A decoded event with its Kafka position, which projections use as their idempotency guard. */
export interface ConsumedEvent<E extends HeraldEvent = HeraldEvent> {
  event: E;
  /** Logical topic name (without the installation prefix). */
  topic: string;
  partition: number;
  offset: number;
}

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
   * now and then so the group does not think this consumer died.
   */
  handle: (records: ConsumedEvent[], context: HandlerContext) => Promise<void>;
  logger: Logger;
  fromBeginning?: boolean;
  maxChunkSize?: number;
  partitionsConsumedConcurrently?: number;
  /** Retries of a retriable failure before giving up on the chunk. */
  retries?: number;
  /** Session timeout; handlers that run long must heartbeat within it. */
  sessionTimeoutMs?: number;
  /** Called after each chunk is done (handled or dead-lettered): progress for rebuilds and lag. */
  onChunkDone?: (progress: { topic: string; partition: number; lastOffset: number; count: number }) => void;
}

const HEARTBEAT_WHILE_HANDLING_MS = 3_000;

export interface HandlerContext {
  heartbeat: () => Promise<void>;
}

export interface RunningConsumer {
  /** Resolves when the consumer has joined its group for the first time. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs a consumer group: decodes every record at the boundary, dead-letters
 * what cannot be decoded or handled (with provenance), and marks an offset
 * consumed only after the handler has succeeded for it. Retriable failures
 * (infrastructure down) are retried with backoff and, if they persist, make
 * kafkajs restart the consumer from the last committed offset: the record is
 * not at fault, so it is never dead-lettered for that.
 */
export async function runConsumer(spec: ConsumerSpec): Promise<RunningConsumer> {
  const { kafka } = spec;
  const groupId = kafka.group(spec.groupId);
  const logger = spec.logger.child({ group: groupId });
  const maxChunk = spec.maxChunkSize ?? 500;
  const logicalTopic = new Map(spec.topics.map((topic) => [kafka.topic(topic), topic]));
  const deadLetterTopicOf = (physical: string) => kafka.topic(deadLetterTopic(logicalTopic.get(physical) ?? physical, spec.groupId));
  await ensurePlainTopics(kafka, [...logicalTopic.keys()].map(deadLetterTopicOf));

  const consumer: Consumer = kafka.client.consumer({
    groupId,
    sessionTimeout: spec.sessionTimeoutMs ?? 15_000,
    heartbeatInterval: 1_000,
    maxWaitTimeInMs: 100,
  });
  let joined!: () => void;
  const ready = new Promise<void>((resolve) => (joined = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => joined());
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    logger.error({ err: payload.error, restart: payload.restart }, 'consumer crashed');
  });

  const retryOptions = { retries: spec.retries ?? 5, minTimeout: 100, maxTimeout: 5_000, randomize: true };
  const handleWithRetry = (records: ConsumedEvent[], context: HandlerContext) =>
    pRetry(() => spec.handle(records, context), {
      ...retryOptions,
      shouldRetry: ({ error }) => isRetriable(error),
      onFailedAttempt: ({ error, attemptNumber }) => {
        if (isRetriable(error)) logger.warn({ err: error, attemptNumber }, 'handler failed, retrying');
      },
    });

  const deadLetter = async (messages: ReadonlyArray<{ message: KafkaMessage; error: unknown }>, topic: string, partition: number) => {
    if (messages.length === 0) return;
    const now = new Date();
    const target = { topic: deadLetterTopicOf(topic), groupId };
    const letters = messages.map(({ message, error }) =>
      deadLetterFor({ topic, partition, offset: message.offset, key: message.key, value: message.value, headers: message.headers, timestamp: message.timestamp }, target, error, now),
    );
    for (const { message, error } of messages) {
      logger.warn({ err: error, topic, partition, offset: message.offset }, 'record dead-lettered');
    }
    const topicMessages: TopicMessages[] = [{ topic: target.topic, messages: letters.map((letter) => letter.message) }];
    await spec.producer.publishRaw(topicMessages);
    kafka.observer.deadLettered?.(spec.groupId, logicalTopic.get(topic) ?? topic, messages.length);
  };

  /** A chunk failed for a reason that is not retriable: find the culprits one by one. */
  const handleOneByOne = async (records: ConsumedEvent[], messages: Map<number, KafkaMessage>, topic: string, partition: number, context: HandlerContext) => {
    for (const record of records) {
      try {
        await handleWithRetry([record], context);
      } catch (error) {
        if (isRetriable(error)) throw error;
        await deadLetter([{ message: messages.get(record.offset)!, error }], topic, partition);
      }
    }
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
  await pRetry(() => consumer.subscribe({ topics: [...logicalTopic.keys()], fromBeginning: spec.fromBeginning ?? true }), KAFKA_SETUP_RETRY);
  await consumer.run({
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: spec.partitionsConsumedConcurrently ?? 1,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const context: HandlerContext = { heartbeat: () => payload.heartbeat() };
      const { topic, partition } = batch;
      const logical = logicalTopic.get(topic) ?? topic;
      for (let start = 0; start < batch.messages.length; start += maxChunk) {
        if (!payload.isRunning() || payload.isStale()) return;
        const chunk = batch.messages.slice(start, start + maxChunk);
        const records: ConsumedEvent[] = [];
        const byOffset = new Map<number, KafkaMessage>();
        const undecodable: Array<{ message: KafkaMessage; error: unknown }> = [];
        for (const message of chunk) {
          try {
            const offset = Number(message.offset);
            records.push({ event: decodeEvent(message.value), topic: logical, partition, offset });
            byOffset.set(offset, message);
          } catch (error) {
            undecodable.push({ message, error });
          }
        }
        await deadLetter(undecodable, topic, partition);
        if (records.length > 0) {
          // A handler may wait a long time on one query (a million-device audience): keep the
          // group membership alive meanwhile, or the group evicts this consumer and the work restarts.
          const keepAlive = setInterval(() => void payload.heartbeat().catch(() => undefined), HEARTBEAT_WHILE_HANDLING_MS);
          try {
            await handleWithRetry(records, context);
          } catch (error) {
            if (isRetriable(error)) throw error;
            logger.warn({ err: error, topic, partition, size: records.length }, 'chunk failed, handling records one by one');
            await handleOneByOne(records, byOffset, topic, partition, context);
          } finally {
            clearInterval(keepAlive);
          }
        }
        const lastOffset = chunk[chunk.length - 1]!.offset;
        payload.resolveOffset(lastOffset);
        observeChunk(records, logical, partition, Number(batch.highWatermark) - 1 - Number(lastOffset));
        await payload.heartbeat();
        await payload.commitOffsetsIfNecessary();
        spec.onChunkDone?.({ topic: logical, partition, lastOffset: Number(lastOffset), count: chunk.length });
      }
    },
  });

  return {
    ready,
    stop: async () => {
      await consumer.disconnect();
    },
  };
}
