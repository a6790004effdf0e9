import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { announceWait, createLogger } from '@herald/log';
import { startMetricsServer } from '@herald/metrics';
import { connectBackbone, fileClock, useLeanAsyncResourceBind } from '@herald/runtime';
import { CredentialStore, parseSecretKey, WebPushKeyStore } from '@herald/admin';
import { ConfigError } from '@herald/errors';
import { DeliveryConfig, rolesOf } from './config.ts';
import { startDelivery } from './start-delivery.ts';
import { projectCredentials } from './sender/provider-clients.ts';

// Node's HTTP/2 client binds an AsyncResource per request; Node's bind gets every request promoted (see the function).
useLeanAsyncResourceBind();

await runProcess('delivery', async () => {
  const config = loadConfig(DeliveryConfig, process.env);
  const roles = rolesOf(config.DELIVERY_ROLES);
  const sends = roles.includes('apns') || roles.includes('fcm') || roles.includes('webpush') || roles.includes('hms');
  if (sends && config.HERALD_SECRET_KEY === undefined) {
    throw new ConfigError(['HERALD_SECRET_KEY is required by the apns, fcm, webpush and hms roles (it decrypts provider credentials and VAPID keys)']);
  }
  const secretKey = config.HERALD_SECRET_KEY === undefined ? undefined : parseSecretKey(config.HERALD_SECRET_KEY);
  const logger = createLogger({ name: 'delivery', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config), roles }, 'starting delivery');

  const backbone = await connectBackbone('delivery', config, logger);
  const { metrics, kafka, mongo, producer } = backbone;
  // Listening from the start: /metrics while it catches up, /readyz 503 until it can deliver.
  let ready = false;
  const metricsServer = await startMetricsServer(metrics.registry, config.METRICS_HOST, config.METRICS_PORT, () => ready);
  const credentials = secretKey === undefined ? { get: async () => ({}) } : projectCredentials(new CredentialStore(mongo.db, secretKey), new WebPushKeyStore(mongo.db, secretKey));
  const delivery = await startDelivery({
    config,
    ports: {
      kafka,
      producer,
      db: mongo.db,
      logger,
      credentials,
      clock: fileClock(config.HERALD_CLOCK_FILE),
      onIndexApplied: (partition, next, records) => {
        metrics.indexApplied.inc({ partition: String(partition) }, records);
        metrics.indexPosition.set({ partition: String(partition) }, next);
      },
      observer: {
        sent: (provider, seconds) => metrics.providerLatency.observe({ provider }, seconds),
        outcome: (provider, outcome, count) => metrics.deliveries.inc({ provider, outcome }, count),
      },
    },
  });
  await announceWait(logger, 'every delivery consumer group joined', delivery.ready);
  ready = true;
  logger.info({ roles, metrics_port: metricsServer.port }, 'delivery consuming');

  return async () => {
    logger.info('stopping delivery');
    await delivery.stop();
    await metricsServer.close();
    await backbone.close();
  };
});
