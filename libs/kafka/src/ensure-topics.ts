import type { HeraldKafka } from './create-kafka.ts';
import { retry, systemClock } from '@herald/retry';
import type { Admin } from 'kafkajs';
import { ConfigResourceTypes } from './kafkajs.ts';
import { ConfigError } from '@herald/errors';
import { TOPIC_SPECS, topicConfig, type TopicSpec } from '@herald/events';
import { durabilityFor, weakerTopics, weakTopicsError, type Durability, type DurabilitySettings, type TopicDurability } from './topic-durability.ts';

export interface TopicPlan {
  specs?: readonly TopicSpec[];
  /** Partitions for new topics; existing topics are left as they are. */
  partitions: number;
  /**
   * Replication factor and min.insync.replicas for the event and work topics
   * (KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS); unset: 3/2 on a
   * cluster of three or more brokers, else 1/1. New topics get them; existing
   * ones weaker than that stop the start with a ConfigError naming them.
   */
  durability?: DurabilitySettings;
}

/**
 * Whether a failed Kafka admin or metadata call is worth another try (pure). Several
 * processes start at once and each ensures the topics: a topic another
 * process is still creating can answer "does not host this topic-partition"
 * for a moment, and a busy broker can time a creation out. kafkajs marks
 * those retriable, but reports per-topic failures as one aggregate error
 * that is not: retry it when every topic's error is retriable or says the
 * topic already exists (another process won the race).
 */
export function isRetriableKafkaError(error: unknown): boolean {
  const { retriable, errors } = error as { retriable?: unknown; errors?: unknown };
  if (retriable === true) return true;
  if (!Array.isArray(errors) || errors.length === 0) return false;
  return errors.every((inner: { retriable?: unknown; type?: unknown }) => inner.retriable === true || inner.type === 'TOPIC_ALREADY_EXISTS');
}

/** How long the broker may take to create topics: a loaded single node needs more than kafkajs' 5 s default. */
const CREATE_TIMEOUT_MS = 30_000;

/** How long setting up topics and subscriptions at start keeps retrying: a starved single-node broker can take that long to host a topic it has just created. */
export const KAFKA_SETUP_RETRY_MS = 30_000;

/** Waits between setup retries: 50 ms to 100 ms first, doubling to at most 2 s. */
const KAFKA_SETUP_BACKOFF = { minMs: 100, maxMs: 2_000 };

/** Runs a setup call (topic creation, metadata, subscribe), retrying retriable Kafka failures for KAFKA_SETUP_RETRY_MS. */
export function retryKafkaSetup<T>(work: () => Promise<T>): Promise<T> {
  return retry(work, { classify: isRetriableKafkaError, backoff: KAFKA_SETUP_BACKOFF, deadline: systemClock.now() + KAFKA_SETUP_RETRY_MS });
}

async function retryingCreation<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await retryKafkaSetup(create);
  } catch (error) {
    // kafkajs' aggregate says only "Topic creation errors": name each topic's.
    const { errors } = error as { errors?: unknown };
    if (!Array.isArray(errors)) throw error;
    const details = errors.map((inner: { topic?: string; type?: string; message?: string }) => `${inner.topic ?? '?'}: ${inner.type ?? inner.message ?? 'unknown error'}`);
    throw new Error(`${(error as Error).message} (${details.join(', ')})`, { cause: error });
  }
}

/**
 * Creates the topics that do not exist yet, then checks that every one is as
 * durable as configured; safe to call from every process at start.
 */
export async function ensureTopics(kafka: HeraldKafka, plan: TopicPlan): Promise<void> {
  const durability = await retryingCreation(() => createMissingTopics(kafka, plan));
  const names = (plan.specs ?? TOPIC_SPECS).map((spec) => kafka.topic(spec.name));
  const problems = weakerTopics(durability, await retryKafkaSetup(() => describeDurability(kafka, names)));
  if (problems.length > 0) throw weakTopicsError(problems);
}

/** Each topic's fewest replicas over its partitions and its effective min.insync.replicas. */
export async function describeDurability(kafka: HeraldKafka, topics: readonly string[]): Promise<TopicDurability[]> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [...topics] });
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['min.insync.replicas'] })),
    });
    const minIsr = new Map(configs.resources.map((resource) => [resource.resourceName, Number(resource.configEntries.find((entry) => entry.configName === 'min.insync.replicas')?.configValue ?? 1)]));
    return metadata.topics.map((topic) => ({
      topic: topic.name,
      replicationFactor: Math.min(...topic.partitions.map((partition) => partition.replicas.length)),
      minInsyncReplicas: minIsr.get(topic.name) ?? 1,
    }));
  } finally {
    await admin.disconnect();
  }
}

/**
 * Brokers the cluster has: those it reports, or its brokers' own
 * `default.replication.factor` when that is more. Metadata lists only brokers
 * that are up and caught up, so a cluster that is starting (or has one down)
 * can show fewer; a cluster configured for three copies has three brokers,
 * and its topics must not be created with fewer copies for that moment.
 */
async function brokerCount(admin: Admin): Promise<number> {
  const { brokers } = await admin.describeCluster();
  if (brokers.length >= 3 || brokers[0] === undefined) return brokers.length;
  const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.BROKER, name: String(brokers[0].nodeId), configNames: ['default.replication.factor'] }] });
  const configured = Number(resources[0]?.configEntries.find((entry) => entry.configName === 'default.replication.factor')?.configValue ?? 1);
  return Math.max(brokers.length, Number.isInteger(configured) ? configured : 1);
}

async function createMissingTopics(kafka: HeraldKafka, plan: TopicPlan): Promise<Durability> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const brokers = await brokerCount(admin);
    const durability = durabilityFor(brokers, plan.durability ?? {});
    const existing = new Set(await admin.listTopics());
    const missing = (plan.specs ?? TOPIC_SPECS).filter((spec) => !existing.has(kafka.topic(spec.name)));
    if (missing.length === 0) return durability;
    if (durability.replicationFactor > brokers) {
      throw new ConfigError([`KAFKA_REPLICATION_FACTOR=${durability.replicationFactor} needs at least that many brokers; the cluster has ${brokers} (creating ${missing.map((spec) => kafka.topic(spec.name)).join(', ')})`]);
    }
    // A co-partitioned topic takes the partition count of the topic it follows, if that one exists already.
    const like = [...new Set(missing.flatMap((spec) => (spec.partitionsLike === undefined || !existing.has(kafka.topic(spec.partitionsLike)) ? [] : [spec.partitionsLike])))];
    const counts = new Map<string, number>();
    for (const name of like) counts.set(name, (await admin.fetchTopicOffsets(kafka.topic(name))).length);
    await admin.createTopics({
      waitForLeaders: true,
      timeout: CREATE_TIMEOUT_MS,
      topics: missing.map((spec) => ({
        topic: kafka.topic(spec.name),
        numPartitions: spec.partitions ?? (spec.partitionsLike === undefined ? undefined : counts.get(spec.partitionsLike)) ?? plan.partitions,
        replicationFactor: durability.replicationFactor,
        configEntries: Object.entries({ ...topicConfig(spec), 'min.insync.replicas': String(durability.minInsyncReplicas) }).map(([name, value]) => ({ name, value })),
      })),
    });
    return durability;
  } finally {
    await admin.disconnect();
  }
}

/** Creates plain topics (dead-letter topics) that do not exist yet; names are physical (already prefixed). */
export function ensurePlainTopics(kafka: HeraldKafka, names: readonly string[], config: Readonly<Record<string, string>> = {}): Promise<void> {
  return retryingCreation(() => createMissingPlainTopics(kafka, names, config));
}

async function createMissingPlainTopics(kafka: HeraldKafka, names: readonly string[], config: Readonly<Record<string, string>>): Promise<void> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = names.filter((name) => !existing.has(name));
    if (missing.length > 0) {
      await admin.createTopics({ waitForLeaders: true, timeout: CREATE_TIMEOUT_MS, topics: missing.map((topic) => ({ topic, numPartitions: 1, replicationFactor: -1, configEntries: Object.entries(config).map(([name, value]) => ({ name, value })) })) });
    }
  } finally {
    await admin.disconnect();
  }
}
