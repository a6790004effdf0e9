import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { createLogger } from '@herald/log';
import { createKafka, ensureTopics, EventProducer } from '@herald/kafka';
import { connectMongo } from '@herald/mongo';
import { ProjectorConfig } from './config.ts';
import { startProjector } from './start-projector.ts';

await runProcess('projector', async () => {
  const config = loadConfig(ProjectorConfig, process.env);
  const logger = createLogger({ name: 'projector', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config) }, 'starting projector');

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, prefix: config.KAFKA_TOPIC_PREFIX, clientId: 'herald-projector', logger });
  await ensureTopics(kafka, { partitions: config.KAFKA_PARTITIONS });
  const mongo = await connectMongo(config.MONGO_URL, 'herald-projector');
  const producer = new EventProducer(kafka);
  await producer.connect();
  const projector = await startProjector({ kafka, producer, db: mongo.db, logger });
  await projector.ready;
  logger.info('projector consuming');

  return async () => {
    logger.info('stopping projector');
    await projector.stop();
    await producer.disconnect();
    await mongo.close();
  };
});
