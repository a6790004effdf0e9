import type { CommonConfig } from '@herald/config';
import { createKafka, deadLetterDepth, ensureTopics, EventProducer, type HeraldKafka } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { createMetrics, kafkaObserver } from '@herald/metrics';
import { connectMongo, type MongoHandle } from '@herald/mongo';

/** What every long-running Herald service stands on: metrics, Kafka with its topics, MongoDB, a connected producer. */
export interface Backbone {
  metrics: ReturnType<typeof createMetrics>;
  kafka: HeraldKafka;
  mongo: MongoHandle;
  producer: EventProducer;
  /** Disconnects the producer and MongoDB; call after the service's own parts have stopped. */
  close(): Promise<void>;
}

export async function connectBackbone(
  service: string,
  config: Pick<CommonConfig, 'KAFKA_BROKERS' | 'KAFKA_TOPIC_PREFIX' | 'MONGO_URL' | 'KAFKA_REPLICATION_FACTOR' | 'KAFKA_MIN_INSYNC_REPLICAS'> & { KAFKA_PARTITIONS: number },
  logger: Logger,
): Promise<Backbone> {
  // Asked at scrape time, once Kafka below exists.
  const metrics = createMetrics(service, { deadLetterDepth: (topics) => deadLetterDepth(kafka, topics) });
  const clientId = `herald-${service}`;
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, prefix: config.KAFKA_TOPIC_PREFIX, clientId, logger, observer: kafkaObserver(metrics) });
  // Refuses to run (ConfigError naming the topic) when an existing topic is less durable than configured.
  await ensureTopics(kafka, { partitions: config.KAFKA_PARTITIONS, durability: { replicationFactor: config.KAFKA_REPLICATION_FACTOR, minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS } });
  const mongo = await connectMongo(config.MONGO_URL, clientId);
  const producer = new EventProducer(kafka);
  await producer.connect();
  return {
    metrics,
    kafka,
    mongo,
    producer,
    close: async () => {
      await producer.disconnect();
      await mongo.close();
    },
  };
}
