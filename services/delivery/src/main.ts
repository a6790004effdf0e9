import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { createLogger } from '@herald/log';
import { createKafka, ensureTopics, EventProducer } from '@herald/kafka';
import { connectMongo } from '@herald/mongo';
import { createMetrics, kafkaObserver, startMetricsServer } from '@herald/metrics';
import { CredentialStore, parseSecretKey } from '@herald/admin';
import { ConfigError } from '@herald/errors';
import { DeliveryConfig, rolesOf } from './config.ts';
import { startDelivery } from './start-delivery.ts';

await runProcess('delivery', async () => {
  const config = loadConfig(DeliveryConfig, process.env);
  const roles = rolesOf(config.DELIVERY_ROLES);
  const sends = roles.includes('apns') || roles.includes('fcm');
  if (sends && config.HERALD_SECRET_KEY === undefined) {
    throw new ConfigError(['HERALD_SECRET_KEY is required by the apns and fcm roles (it decrypts provider credentials)']);
  }
  const secretKey = config.HERALD_SECRET_KEY === undefined ? undefined : parseSecretKey(config.HERALD_SECRET_KEY);
  const logger = createLogger({ name: 'delivery', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config), roles }, 'starting delivery');

  const metrics = createMetrics('delivery');
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, prefix: config.KAFKA_TOPIC_PREFIX, clientId: 'herald-delivery', logger, observer: kafkaObserver(metrics) });
  await ensureTopics(kafka, { partitions: config.KAFKA_PARTITIONS });
  const mongo = await connectMongo(config.MONGO_URL, 'herald-delivery');
  const producer = new EventProducer(kafka);
  await producer.connect();
  const credentials = secretKey === undefined ? { get: async () => ({}) } : new CredentialStore(mongo.db, secretKey);
  const delivery = await startDelivery({
    kafka,
    producer,
    db: mongo.db,
    logger,
    roles,
    credentials,
    apnsEndpoint: config.APNS_ENDPOINT,
    fcmEndpoint: config.FCM_ENDPOINT,
    retryDeadlineMs: config.DELIVERY_RETRY_DEADLINE_MS,
    maxAgeMs: config.DELIVERY_MAX_AGE_MS,
    concurrency: config.DELIVERY_CONCURRENCY,
    apnsMaxInFlight: config.APNS_MAX_IN_FLIGHT,
    fcmMaxConcurrentChunks: config.FCM_MAX_CONCURRENT_CHUNKS,
    observer: {
      sent: (provider, seconds) => metrics.providerLatency.observe({ provider }, seconds),
      outcome: (provider, outcome, count) => metrics.deliveries.inc({ provider, outcome }, count),
    },
  });
  const metricsServer = await startMetricsServer(metrics.registry, config.METRICS_HOST, config.METRICS_PORT);
  await delivery.ready;
  logger.info({ roles, metrics_port: metricsServer.port }, 'delivery consuming');

  return async () => {
    logger.info('stopping delivery');
    await delivery.stop();
    await metricsServer.close();
    await producer.disconnect();
    await mongo.close();
  };
});
