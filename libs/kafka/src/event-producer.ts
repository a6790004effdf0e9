import type { Producer, TopicMessages } from 'kafkajs';
import type { HeraldKafka } from './create-kafka.ts';
import { encodeEvent, latestEntry, type HeraldEvent } from '@herald/events';
import { InfrastructureError, isAppError } from '@herald/errors';
import { classifyKafkaError } from './kafka-errors.ts';
import { producerConfig } from './producer-config.ts';

interface Pending {
  topicMessages: TopicMessages[];
  count: number;
  bytes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
  /** Sent in a request of its own: set after a request it shared was refused for good. */
  alone?: boolean;
}

/** Records per request. */
const MAX_RECORDS_PER_SEND = 2000;
/**
 * Bytes per request: kafkajs writes one record batch per partition, and the
 * broker refuses a batch over `message.max.bytes` (1 MB by default), so
 * coalesced publishes are cut below it. A single record over it is refused
 * by the broker as it would be anyway (callers bound their records).
 */
const MAX_BYTES_PER_SEND = 768 * 1024;

/**
 * An idempotent producer (acks=all) that coalesces concurrent publishes:
 * while one request is in flight, everything published meanwhile waits and
 * goes out together in the next one. Each caller's promise settles when its
 * own records are acknowledged.
 *
 * After a failed send the kafkajs producer is thrown away and a new one
 * (new producer id, fresh sequence numbers) connects before the next send:
 * a partial failure can leave an idempotent producer's sequence numbers out
 * of step with the broker (OUT_OF_ORDER_SEQUENCE_NUMBER on every later send).
 */
export class EventProducer {
  #producer: Producer;
  readonly #kafka: HeraldKafka;
  #queue: Pending[] = [];
  #sending = false;
  #broken = false;
  #connected = false;
  #generation = 1;

  constructor(kafka: HeraldKafka) {
    this.#kafka = kafka;
    this.#producer = this.#create();
  }

  #create(): Producer {
    return this.#kafka.client.producer(producerConfig());
  }

  /** How many kafkajs producers this one has used: 1, plus one per send that failed. */
  get generation(): number {
    return this.#generation;
  }

  async connect(): Promise<void> {
    await this.#producer.connect();
    this.#connected = true;
  }

  async disconnect(): Promise<void> {
    this.#connected = false;
    await this.#producer.disconnect();
  }

  /** Replaces a producer whose last send failed by a fresh one before anything else is sent. */
  async #renew(): Promise<void> {
    const old = this.#producer;
    await old.disconnect().catch(() => undefined);
    this.#producer = this.#create();
    this.#generation += 1;
    await this.#producer.connect();
    this.#broken = false;
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

  /**
   * Already-encoded records for physical topics (dead letters keep the
   * original bytes). A publish larger than one request's bound is sent in
   * parts; if one part fails the caller sees the failure, and a retry
   * repeats records Kafka may already hold (consumers are idempotent).
   */
  publishRaw(topicMessages: TopicMessages[]): Promise<void> {
    const parts = splitByBytes(topicMessages).map(
      (part) =>
        new Promise<void>((resolve, reject) => {
          this.#queue.push({ ...part, resolve, reject });
          if (!this.#sending) void this.#drain();
        }),
    );
    return Promise.all(parts).then(() => undefined);
  }

  async #drain(): Promise<void> {
    this.#sending = true;
    try {
      while (this.#queue.length > 0) {
        const batch = takeBatch(this.#queue);
        try {
          if (this.#broken && this.#connected) await this.#renew();
          const topicMessages = mergeTopics(batch);
          await this.#producer.sendBatch({ acks: -1, topicMessages });
          observeProduced(this.#kafka, topicMessages);
          for (const item of batch) item.resolve();
        } catch (cause) {
          this.#broken = true;
          const classified = classifyKafkaError(cause);
          const error = isAppError(classified) ? classified : new InfrastructureError('KAFKA_UNAVAILABLE', 'Kafka did not acknowledge the records', { cause });
          if (!error.retriable && batch.length > 1) {
            // One caller's records may be at fault (too large): try each caller alone, so the others are not failed for it.
            this.#queue.unshift(...batch.map((item) => ({ ...item, alone: true })));
            continue;
          }
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.#sending = false;
    }
  }
}

/** Counts written records per (logical topic, event type) for the metrics hook. */
export function observeProduced(kafka: HeraldKafka, topicMessages: readonly TopicMessages[]): void {
  const { produced } = kafka.observer;
  if (produced === undefined) return;
  for (const { topic, messages } of topicMessages) {
    const byType = new Map<string, number>();
    for (const message of messages) {
      const type = headerText(message.headers?.['dlq.group'] === undefined ? message.headers?.type : 'DeadLetter');
      byType.set(type, (byType.get(type) ?? 0) + 1);
    }
    for (const [type, count] of byType) produced(topic.slice(kafka.prefix.length), type, count);
  }
}

function headerText(value: unknown): string {
  return typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString() : 'unknown';
}

function recordBytes(message: TopicMessages['messages'][number]): number {
  const size = (value: unknown) => (typeof value === 'string' ? Buffer.byteLength(value) : Buffer.isBuffer(value) ? value.length : 0);
  return size(message.value) + size(message.key) + 64;
}

/** Cuts one publish into parts that each fit one request. */
export function splitByBytes(topicMessages: readonly TopicMessages[]): Array<Pick<Pending, 'topicMessages' | 'count' | 'bytes'>> {
  const parts: Array<Pick<Pending, 'topicMessages' | 'count' | 'bytes'>> = [];
  let current = { topicMessages: new Map<string, TopicMessages>(), count: 0, bytes: 0 };
  const close = () => {
    if (current.count > 0) parts.push({ topicMessages: [...current.topicMessages.values()], count: current.count, bytes: current.bytes });
    current = { topicMessages: new Map(), count: 0, bytes: 0 };
  };
  for (const { topic, messages } of topicMessages) {
    for (const message of messages) {
      const size = recordBytes(message);
      if (current.count > 0 && (current.bytes + size > MAX_BYTES_PER_SEND || current.count >= MAX_RECORDS_PER_SEND)) close();
      let bucket = current.topicMessages.get(topic);
      if (bucket === undefined) {
        bucket = { topic, messages: [] };
        current.topicMessages.set(topic, bucket);
      }
      bucket.messages.push(message);
      current.count += 1;
      current.bytes += size;
    }
  }
  close();
  return parts;
}

/** The publishes that go out together: bounded in records and bytes; one publish larger than the bound goes alone. */
function takeBatch(queue: Pending[]): Pending[] {
  const batch: Pending[] = [];
  let records = 0;
  let bytes = 0;
  while (queue.length > 0) {
    const next = queue[0]!;
    if (batch.length > 0 && (next.alone === true || records + next.count > MAX_RECORDS_PER_SEND || bytes + next.bytes > MAX_BYTES_PER_SEND)) break;
    batch.push(next);
    records += next.count;
    bytes += next.bytes;
    queue.shift();
    if (next.alone === true) break;
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
