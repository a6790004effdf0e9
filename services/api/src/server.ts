import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { createLogger } from '@herald/log';
import { createKafka, ensureTopics, EventProducer } from '@herald/kafka';
import { connectMongo, ensureAdminIndexes, ReadModelRegistry } from '@herald/mongo';
import { AdminStore } from '@herald/admin';
import { createMetrics, kafkaObserver } from '@herald/metrics';
import { ApiConfig } from './config.ts';
import { buildApp } from './build-app.ts';
import { readinessCheck } from './readiness.ts';

await runProcess('api', async () => {
  const config = loadConfig(ApiConfig, process.env);
  const logger = createLogger({ name: 'api', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config) }, 'starting api');

  const metrics = createMetrics('api');
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, prefix: config.KAFKA_TOPIC_PREFIX, clientId: 'herald-api', logger, observer: kafkaObserver(metrics) });
  await ensureTopics(kafka, { partitions: config.KAFKA_PARTITIONS });
  const mongo = await connectMongo(config.MONGO_URL, 'herald-api');
  await ensureAdminIndexes(mongo.db);
  const producer = new EventProducer(kafka);
  await producer.connect();

  const app = await buildApp(
    {
      producer,
      db: mongo.db,
      admin: new AdminStore(mongo.db),
      readModels: new ReadModelRegistry(mongo.db),
      metrics,
      checkReady: readinessCheck(kafka, mongo.db),
    },
    logger,
  );
  await app.listen({ host: config.HOST, port: config.PORT });

  return async () => {
    await app.close();
    await producer.disconnect();
    await mongo.close();
  };
});
