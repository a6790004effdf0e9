import { Partitioners, type Producer, type TopicMessages } from 'kafkajs';
import type { HeraldKafka } from './create-kafka.ts';
import { encodeEvent, latestEntry, type HeraldEvent } from '@herald/events';
import { InfrastructureError } from '@herald/errors';

interface Pending {
  topicMessages: TopicMessages[];
  count: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Records per request; keeps one request well under the broker's message size limits. */
const MAX_RECORDS_PER_SEND = 2000;

/**
 * An idempotent producer (acks=all) that coalesces concurrent publishes:
 * while one request is in flight, everything published meanwhile waits and
 * goes out together in the next one. Each caller's promise settles when its
 * own records are acknowledged.
 */
export class EventProducer {
  readonly #producer: Producer;
  readonly #kafka: HeraldKafka;
  #queue: Pending[] = [];
  #sending = false;

  constructor(kafka: HeraldKafka) {
    this.#kafka = kafka;
    this.#producer = kafka.client.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  async connect(): Promise<void> {
    await this.#producer.connect();
  }

  async disconnect(): Promise<void> {
    await this.#producer.disconnect();
  }

  /** Writes events to their catalog topic, or to the logical `topic` when given (work topics). */
  publish(events: readonly HeraldEvent[], topic?: string): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    const byTopic = new Map<string, TopicMessages>();
    for (const event of events) {
      const target = this.#kafka.topic(topic ?? latestEntry(event.type).topic);
      const record = encodeEvent(event);
      let bucket = byTopic.get(target);
      if (bucket === undefined) {
        bucket = { topic: target, messages: [] };
        byTopic.set(target, bucket);
      }
      bucket.messages.push(record);
    }
    return this.publishRaw([...byTopic.values()]);
  }

  /** Already-encoded records for physical topics (dead letters keep the original bytes). */
  publishRaw(topicMessages: TopicMessages[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const count = topicMessages.reduce((sum, item) => sum + item.messages.length, 0);
      this.#queue.push({ topicMessages, count, resolve, reject });
      if (!this.#sending) void this.#drain();
    });
  }

  #observe(topicMessages: readonly TopicMessages[]): void {
    const { produced } = this.#kafka.observer;
    if (produced === undefined) return;
    for (const { topic, messages } of topicMessages) {
      const byType = new Map<string, number>();
      for (const message of messages) {
        const type = headerText(message.headers?.['dlq.group'] === undefined ? message.headers?.type : 'DeadLetter');
        byType.set(type, (byType.get(type) ?? 0) + 1);
      }
      for (const [type, count] of byType) produced(topic.slice(this.#kafka.prefix.length), type, count);
    }
  }

  async #drain(): Promise<void> {
    this.#sending = true;
    try {
      while (this.#queue.length > 0) {
        const batch = takeBatch(this.#queue);
        try {
          const topicMessages = mergeTopics(batch);
          await this.#producer.sendBatch({ acks: -1, topicMessages });
          this.#observe(topicMessages);
          for (const item of batch) item.resolve();
        } catch (cause) {
          const error = new InfrastructureError('KAFKA_UNAVAILABLE', 'Kafka did not acknowledge the records', { cause });
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.#sending = false;
    }
  }
}

function headerText(value: unknown): string {
  return typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString() : 'unknown';
}

function takeBatch(queue: Pending[]): Pending[] {
  const batch: Pending[] = [];
  let records = 0;
  while (queue.length > 0) {
    const next = queue[0]!;
    if (batch.length > 0 && records + next.count > MAX_RECORDS_PER_SEND) break;
    batch.push(next);
    records += next.count;
    queue.shift();
  }
  return batch;
}

function mergeTopics(batch: readonly Pending[]): TopicMessages[] {
  const merged = new Map<string, TopicMessages>();
  for (const item of batch) {
    for (const { topic, messages } of item.topicMessages) {
      const bucket = merged.get(topic);
      if (bucket === undefined) merged.set(topic, { topic, messages: [...messages] });
      else bucket.messages.push(...messages);
    }
  }
  return [...merged.values()];
}
