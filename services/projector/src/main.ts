import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { createLogger } from '@herald/log';
import { createKafka, ensureTopics, EventProducer } from '@herald/kafka';
import { connectMongo } from '@herald/mongo';
import { createMetrics, kafkaObserver, startMetricsServer } from '@herald/metrics';
import { ProjectorConfig } from './config.ts';
import { startProjector } from './start-projector.ts';

await runProcess('projector', async () => {
  const config = loadConfig(ProjectorConfig, process.env);
  const logger = createLogger({ name: 'projector', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config) }, 'starting projector');

  const metrics = createMetrics('projector');
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, prefix: config.KAFKA_TOPIC_PREFIX, clientId: 'herald-projector', logger, observer: kafkaObserver(metrics) });
  await ensureTopics(kafka, { partitions: config.KAFKA_PARTITIONS });
  const mongo = await connectMongo(config.MONGO_URL, 'herald-projector');
  const producer = new EventProducer(kafka);
  await producer.connect();
  const projector = await startProjector({ kafka, producer, db: mongo.db, logger });
  const metricsServer = await startMetricsServer(metrics.registry, config.METRICS_HOST, config.METRICS_PORT);
  await projector.ready;
  logger.info({ metrics_port: metricsServer.port }, 'projector consuming');

  return async () => {
    logger.info('stopping projector');
    await projector.stop();
    await metricsServer.close();
    await producer.disconnect();
    await mongo.close();
  };
});
