import type { logCreator, Kafka as KafkaClient } from 'kafkajs';
import { Kafka, logLevel } from './kafkajs.ts';
import type { Logger } from '@herald/log';
import { kafkajsLogLevel } from './kafkajs-log-level.ts';
import { fixKafkajsIdleLoop } from './request-queue-fix.ts';
import { cacheCoordinators, kafkajsCluster } from './coordinator-cache.ts';

export type { Kafka } from 'kafkajs';

export interface KafkaSettings {
  /** Comma-separated bootstrap brokers, as in KAFKA_BROKERS. */
  brokers: string;
  clientId: string;
  logger: Logger;
  /** Prepended to every topic and consumer group name (KAFKA_TOPIC_PREFIX): one cluster, several installations or test files. */
  prefix?: string;
  observer?: KafkaObserver;
}

/** Hooks for metrics; names are logical (without the prefix). */
export interface KafkaObserver {
  produced?: (topic: string, type: string, count: number) => void;
  consumed?: (group: string, topic: string, type: string, count: number) => void;
  deadLettered?: (group: string, topic: string, count: number) => void;
  lag?: (group: string, topic: string, partition: number, lag: number) => void;
  /** A consumer started that dead-letters into these topics (their depth is a metric). */
  deadLetterTopics?: (topics: readonly string[]) => void;
}

/** A kafkajs client plus the naming rule: code uses logical names, Kafka sees prefixed ones. */
export interface HeraldKafka {
  client: KafkaClient;
  /**
   * A kafkajs client of its own, same settings. kafkajs keeps one map of
   * committed offsets per group id for every consumer made by one client, and
   * a member that joins again clears the whole group's entry: two members of
   * one group in one process (the audience index and the task runner of
   * herald.fanout-partitions) then wipe each other's, and the other crashes
   * at its next fetch ("Cannot read properties of undefined (reading '1')"
   * in OffsetManager.resolveOffsets). The second member takes its own client.
   */
  isolatedClient?(): KafkaClient;
  prefix: string;
  observer: KafkaObserver;
  topic(logical: string): string;
  group(logical: string): string;
}

const PINO_LEVEL = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
  [logLevel.NOTHING]: 'silent',
} as const;

/** kafkajs logs through the process's pino logger, at warn and above (its info is chatty), minus its expected noise. */
function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, ...fields } = log;
      const method = kafkajsLogLevel({ namespace, level: PINO_LEVEL[level], message });
      if (method === 'silent') return;
      logger[method]({ kafka: namespace, ...fields }, message);
    };
}

export function createKafka(settings: KafkaSettings): HeraldKafka {
  // kafkajs 2.2.4 spins a 1 ms timer per idle broker connection (request-queue-fix.ts).
  fixKafkajsIdleLoop();
  // kafkajs asks for a coordinator before every transactional request (coordinator-cache.ts).
  cacheCoordinators(kafkajsCluster());
  const prefix = settings.prefix ?? '';
  const config = {
    clientId: settings.clientId,
    brokers: settings.brokers.split(',').map((broker) => broker.trim()).filter(Boolean),
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(settings.logger.child({ component: 'kafkajs' })),
    retry: { initialRetryTime: 100, retries: 8 },
  };
  const client = new Kafka(config);
  return { client, isolatedClient: () => new Kafka(config), prefix, observer: settings.observer ?? {}, topic: (logical) => prefix + logical, group: (logical) => prefix + logical };
}
