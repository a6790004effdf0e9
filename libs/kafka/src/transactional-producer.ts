import type { Producer, TopicMessages } from 'kafkajs';
import { encodeEvent, latestEntry, type HeraldEvent } from '@herald/events';
import { InfrastructureError, isAppError, type AppError } from '@herald/errors';
import type { HeraldKafka } from './create-kafka.ts';
import { classifyKafkaError } from './kafka-errors.ts';
import { observeProduced, splitByBytes } from './event-producer.ts';
import { DEFAULT_BACKOFF, retry } from '@herald/retry';
import { withLogAdmin } from './log-admin.ts';
import { producerConfig } from './producer-config.ts';

/** A record to write: an event to its catalog topic (or to `topic`, logical), on `partition` or by key. */
export interface Outgoing {
  event: HeraldEvent;
  topic?: string;
  partition?: number;
}

/** A consumed position to commit with the records: the next offset to read of one partition (logical topic). */
export interface ConsumedPosition {
  topic: string;
  partition: number;
  next: number;
}

interface Pending {
  /** The consumer group whose positions these are (logical name). */
  group: string;
  records: Outgoing[];
  positions: ConsumedPosition[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * How long a transaction may stay open before the broker aborts it. Herald's
 * transactions only write what is already decided, so they last
 * milliseconds; a process killed with one open stalls read_committed readers
 * of the partitions it wrote (until a producer with the same id starts, or
 * this runs out).
 */
export const TRANSACTION_TIMEOUT_MS = 10_000;

/**
 * kafkajs' retries inside one transaction attempt. A transaction begun right
 * after the last one ended is refused (CONCURRENT_TRANSACTIONS) until the
 * broker has written the last one's commit markers: usually a few
 * milliseconds, so the first retry comes after 10. On a busy broker the
 * markers can take a few hundred (356 ms once at the start of a 300/s run),
 * and with the client's doubling the retry after them came up to 320 ms
 * late while every stage of the process waited on this producer; the
 * interval stops growing at 100 ms instead (the Java client retries this
 * refusal every 20 ms). About 3.6 s in all before the attempt fails;
 * #transactWithRetries and the consumer's own retries carry a longer outage.
 */
export const TRANSACTION_RETRY = { initialRetryTime: 10, multiplier: 1.5, maxRetryTime: 100, retries: 40 };

/** What a consumer needs to commit its chunks: records and its group's positions, atomically. */
export interface GroupTransactions {
  commit(records: readonly Outgoing[], positions: readonly ConsumedPosition[]): Promise<void>;
}

/**
 * Writes records and commits consumer groups' positions in one Kafka
 * transaction: the consume-transform-produce step happens exactly once, or
 * not at all (read_committed consumers never see an aborted attempt). So a
 * stage needs no store of its own to know what it already did.
 *
 * One producer per process may serve several groups (`forGroup`): a
 * transaction may commit the positions of several groups (one
 * TxnOffsetCommit each), so the stages of a process share its
 * transactions instead of each paying for its own (a stable
 * `transactionalId`: a restarted process fences its predecessor's open
 * transaction at once). Commits asked for while one is in flight go out
 * together in the next. A failed transaction is aborted and the producer
 * replaced; every caller in it sees the error and may try again with the
 * same records.
 */
export class TransactionalProducer {
  readonly #kafka: HeraldKafka;
  readonly #transactionalId: string;
  readonly #groupId: string | undefined;
  #producer: Producer | undefined;
  #queue: Pending[] = [];
  #running = false;
  /**
   * A commit failed without an answer (the broker went away while ending
   * the transaction): it may have committed. Until a transaction commits
   * again, what is about to be written again is first checked against the
   * group's committed positions (#withoutCommitted).
   */
  #inDoubt = false;
  readonly #faults: TransactionFaults;

  /** `groupId`: the group `commit` commits for (any group: `forGroup`). */
  constructor(kafka: HeraldKafka, options: { transactionalId: string; groupId?: string; faults?: TransactionFaults }) {
    this.#kafka = kafka;
    this.#transactionalId = options.transactionalId;
    this.#groupId = options.groupId;
    this.#faults = options.faults ?? {};
  }

  /** Resolves once `records` are written and `positions` committed for the group, atomically. */
  commit(records: readonly Outgoing[], positions: readonly ConsumedPosition[]): Promise<void> {
    if (this.#groupId === undefined) return Promise.reject(new Error('TransactionalProducer.commit: no groupId was given; use forGroup(group).commit'));
    return this.#enqueue(this.#groupId, records, positions);
  }

  /** Commits for another group (logical name) through this producer's transactions. */
  forGroup(group: string): GroupTransactions {
    return { commit: (records, positions) => this.#enqueue(group, records, positions) };
  }

  #enqueue(group: string, records: readonly Outgoing[], positions: readonly ConsumedPosition[]): Promise<void> {
    if (records.length === 0 && positions.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ group, records: [...records], positions: [...positions], resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async disconnect(): Promise<void> {
    const producer = this.#producer;
    this.#producer = undefined;
    await producer?.disconnect().catch(() => undefined);
  }

  /**
   * Connects and takes the producer id now (the Java client's
   * initTransactions), so that the first commit does not: fencing a
   * predecessor and finding the transaction coordinator took about 100 ms
   * of a campaign's first push when it waited for the first transaction.
   */
  async start(): Promise<void> {
    await this.#connected();
  }

  async #connected(): Promise<Producer> {
    if (this.#producer !== undefined) return this.#producer;
    const producer = this.#kafka.client.producer(producerConfig({
      transactionalId: this.#kafka.group(this.#transactionalId),
      transactionTimeout: TRANSACTION_TIMEOUT_MS,
      retry: TRANSACTION_RETRY,
    }));
    await producer.connect();
    try {
      // kafkajs asks for the producer id at its first transaction; an empty one ends without a request.
      await (await producer.transaction()).abort();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    this.#producer = producer;
    return producer;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) await this.#transactWithRetries(this.#queue.splice(0, this.#queue.length));
    } finally {
      this.#running = false;
    }
  }

  /**
   * A transaction the coordinator is not ready for (its log being created or
   * loaded, a previous transaction of this id still ending) is tried again
   * on a fresh producer a few times before its callers hear of it. Settles
   * every caller of the batch; never throws.
   */
  async #transactWithRetries(batch: readonly Pending[]): Promise<void> {
    let open = batch;
    const attempt = async () => {
      try {
        if (this.#inDoubt) open = await this.#withoutCommitted(open);
        await this.#transact(open);
      } catch (cause) {
        // The next attempt starts on a fresh producer.
        await this.disconnect();
        throw transactionError(cause);
      }
    };
    try {
      await retry(attempt, { attempts: TRANSACTION_ATTEMPTS, backoff: DEFAULT_BACKOFF, classify: (error) => isAppError(error) && error.retriable });
      for (const item of open) item.resolve();
    } catch (error) {
      for (const item of open) item.reject(error);
    }
  }

  /**
   * The callers whose positions the group has not committed yet; the others
   * are resolved. Records and positions commit together, so a committed
   * position means its records were written — by the transaction whose
   * answer was lost, or by the partition's next owner: writing them again
   * would queue a step's batches twice (a duplicate FanoutTask would run a
   * second chain over the rest of a partition's audience). A caller with no
   * position cannot be checked and is written again.
   */
  async #withoutCommitted(batch: readonly Pending[]): Promise<Pending[]> {
    await this.#connected(); // a new producer of this id waits until the transaction in doubt has ended, either way
    const wanted = [...new Set(batch.flatMap((item) => item.positions.map((position) => `${item.group}\u0000${position.topic}`)))];
    const committed = await withLogAdmin(
      this.#kafka,
      async (admin) =>
        new Map(
          await Promise.all(
            wanted.map(async (key) => {
              const [group, topic] = key.split('\u0000') as [string, string];
              return [key, await admin.committed(this.#kafka.group(group), this.#kafka.topic(topic))] as const;
            }),
          ),
        ),
    );
    const done = (item: Pending) => item.positions.length > 0 && item.positions.every(({ topic, partition, next }) => (committed.get(`${item.group}\u0000${topic}`)?.get(partition) ?? -1) >= next);
    for (const item of batch) if (done(item)) item.resolve();
    return batch.filter((item) => !done(item));
  }

  async #transact(batch: readonly Pending[]): Promise<void> {
    const records = batch.flatMap((item) => item.records);
    const positionsByGroup = new Map<string, ConsumedPosition[]>();
    for (const item of batch) if (item.positions.length > 0) positionsByGroup.set(item.group, [...(positionsByGroup.get(item.group) ?? []), ...item.positions]);
    if (records.length === 0 && positionsByGroup.size === 0) return;
    const producer = await this.#connected();
    const transaction = await producer.transaction();
    let ending = false;
    try {
      const topicMessages = encodeOutgoing(this.#kafka, records);
      for (const part of splitByBytes(topicMessages)) await transaction.sendBatch({ acks: -1, topicMessages: part.topicMessages });
      for (const [group, positions] of positionsByGroup) await transaction.sendOffsets({ consumerGroupId: this.#kafka.group(group), topics: offsetTopics(this.#kafka, positions) });
      ending = true;
      await transaction.commit();
      this.#faults.afterCommit?.();
      this.#inDoubt = false;
      observeProduced(this.#kafka, topicMessages);
    } catch (error) {
      if (ending) this.#inDoubt = true;
      await transaction.abort().catch(() => undefined);
      throw error;
    }
  }
}

/** Faults a test injects into a TransactionalProducer. */
export interface TransactionFaults {
  /** Runs once the broker has committed a transaction; throwing there is an answer lost on the way back. */
  afterCommit?(): void;
}

const TRANSACTION_ATTEMPTS = 5;

/**
 * What a failed transaction means: records the broker refuses are
 * permanent; anything else (coordinator moving or loading, concurrent end
 * of an earlier transaction, the broker away) is worth another try. Never a
 * rebalance: group coordinator answers here concern the producer's offset
 * commit, not the consumer's membership.
 */
function transactionError(cause: unknown): AppError {
  const classified = classifyKafkaError(cause);
  if (isAppError(classified) && classified.code === 'KAFKA_RECORD_REJECTED') return classified;
  return new InfrastructureError('KAFKA_UNAVAILABLE', 'Kafka did not commit the transaction', { cause });
}

function encodeOutgoing(kafka: HeraldKafka, records: readonly Outgoing[]): TopicMessages[] {
  const byTopic = new Map<string, TopicMessages>();
  for (const { event, topic, partition } of records) {
    const target = kafka.topic(topic ?? latestEntry(event.type).topic);
    let bucket = byTopic.get(target);
    if (bucket === undefined) {
      bucket = { topic: target, messages: [] };
      byTopic.set(target, bucket);
    }
    bucket.messages.push(partition === undefined ? encodeEvent(event) : { ...encodeEvent(event), partition });
  }
  return [...byTopic.values()];
}

/** The highest position per partition (several callers may commit the same partition in one transaction). */
function offsetTopics(kafka: HeraldKafka, positions: readonly ConsumedPosition[]) {
  const byTopic = new Map<string, Map<number, number>>();
  for (const { topic, partition, next } of positions) {
    const partitions = byTopic.get(topic) ?? new Map<number, number>();
    partitions.set(partition, Math.max(next, partitions.get(partition) ?? 0));
    byTopic.set(topic, partitions);
  }
  return [...byTopic].map(([topic, partitions]) => ({
    topic: kafka.topic(topic),
    partitions: [...partitions].map(([partition, next]) => ({ partition, offset: String(next) })),
  }));
}
