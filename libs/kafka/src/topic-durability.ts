import { ConfigError } from '@herald/errors';

/** Copies of each partition and how many must hold a write before it is acknowledged (producers send with acks=all). */
export interface Durability {
  replicationFactor: number;
  minInsyncReplicas: number;
}

/** What the installation asked for (KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS); unset: chosen by the cluster's size. */
export interface DurabilitySettings {
  replicationFactor?: number | undefined;
  minInsyncReplicas?: number | undefined;
}

/**
 * The durability Herald's topics get (pure): what was configured, else 3
 * copies with 2 in sync on a cluster of three or more brokers (one broker may
 * fail without losing an acknowledged write or stopping writes), else 1/1.
 * A minimum in sync above the copies could never be met: refused.
 */
export function durabilityFor(brokers: number, settings: DurabilitySettings): Durability {
  const cluster = brokers >= 3;
  const replicationFactor = settings.replicationFactor ?? (cluster ? 3 : 1);
  const minInsyncReplicas = settings.minInsyncReplicas ?? Math.min(cluster ? 2 : 1, replicationFactor);
  if (minInsyncReplicas > replicationFactor) {
    throw new ConfigError([`KAFKA_MIN_INSYNC_REPLICAS (${minInsyncReplicas}) must not exceed KAFKA_REPLICATION_FACTOR (${replicationFactor}): no write could ever be acknowledged`]);
  }
  return { replicationFactor, minInsyncReplicas };
}

/** What a topic on the cluster has: the fewest replicas of any of its partitions, and its effective min.insync.replicas. */
export interface TopicDurability {
  topic: string;
  replicationFactor: number;
  minInsyncReplicas: number;
}

/** One line per topic weaker than `wanted`, naming the topic and the setting (pure); empty when all are as strong or stronger. */
export function weakerTopics(wanted: Durability, topics: readonly TopicDurability[]): string[] {
  const problems: string[] = [];
  for (const topic of topics) {
    if (topic.replicationFactor < wanted.replicationFactor) {
      problems.push(`topic ${topic.topic} has replication factor ${topic.replicationFactor}, weaker than KAFKA_REPLICATION_FACTOR=${wanted.replicationFactor}`);
    }
    if (topic.minInsyncReplicas < wanted.minInsyncReplicas) {
      problems.push(`topic ${topic.topic} has min.insync.replicas=${topic.minInsyncReplicas}, weaker than KAFKA_MIN_INSYNC_REPLICAS=${wanted.minInsyncReplicas}`);
    }
  }
  return problems;
}

/** The error a service stops with when an existing topic is weaker than configured. */
export function weakTopicsError(problems: readonly string[]): ConfigError {
  return new ConfigError([
    ...problems,
    'refusing to run: raise the topics (kafka-reassign-partitions for the replicas, kafka-configs --alter for min.insync.replicas) or lower the settings (docs/operations/cluster.md)',
  ]);
}
