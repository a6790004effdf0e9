import type { HeraldKafka } from './create-kafka.ts';
import pRetry from 'p-retry';
import { TOPIC_SPECS, topicConfig, type TopicSpec } from '@herald/events';

export interface TopicPlan {
  specs?: readonly TopicSpec[];
  /** Partitions for new topics; existing topics are left as they are. */
  partitions: number;
  replicationFactor?: number;
}

/**
 * Several processes start at once and each ensures the topics: a topic
 * another process is still creating can answer "does not host this
 * topic-partition" for a moment, which kafkajs marks retriable. Retry those.
 */
function retryingCreation<T>(create: () => Promise<T>): Promise<T> {
  return pRetry(create, {
    retries: 8,
    minTimeout: 100,
    maxTimeout: 2_000,
    randomize: true,
    shouldRetry: ({ error }) => (error as { retriable?: unknown }).retriable === true,
  });
}

/** Creates the topics that do not exist yet; safe to call from every process at start. */
export function ensureTopics(kafka: HeraldKafka, plan: TopicPlan): Promise<void> {
  return retryingCreation(() => createMissingTopics(kafka, plan));
}

async function createMissingTopics(kafka: HeraldKafka, plan: TopicPlan): Promise<void> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = (plan.specs ?? TOPIC_SPECS).filter((spec) => !existing.has(kafka.topic(spec.name)));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((spec) => ({
        topic: kafka.topic(spec.name),
        numPartitions: plan.partitions,
        replicationFactor: plan.replicationFactor ?? -1,
        configEntries: Object.entries(topicConfig(spec)).map(([name, value]) => ({ name, value })),
      })),
    });
  } finally {
    await admin.disconnect();
  }
}

/** Creates plain topics (dead-letter topics) that do not exist yet; names are physical (already prefixed). */
export function ensurePlainTopics(kafka: HeraldKafka, names: readonly string[]): Promise<void> {
  return retryingCreation(() => createMissingPlainTopics(kafka, names));
}

async function createMissingPlainTopics(kafka: HeraldKafka, names: readonly string[]): Promise<void> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = names.filter((name) => !existing.has(name));
    if (missing.length > 0) {
      await admin.createTopics({ waitForLeaders: true, topics: missing.map((topic) => ({ topic, numPartitions: 1, replicationFactor: -1 })) });
    }
  } finally {
    await admin.disconnect();
  }
}
