import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { announceWait, createLogger } from '@herald/log';
import { startMetricsServer } from '@herald/metrics';
import { connectBackbone } from '@herald/runtime';
import { WebhooksConfig } from './config.ts';
import { runWebhooks } from './run-webhooks.ts';

await runProcess('webhooks', async () => {
  const config = loadConfig(WebhooksConfig, process.env);
  const logger = createLogger({ name: 'webhooks', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config) }, 'starting webhooks');

  const backbone = await connectBackbone('webhooks', config, logger);
  const { metrics, kafka, mongo } = backbone;
  // Listening from the start: /metrics at once, /readyz 503 until the first read of the registrations.
  let ready = false;
  const metricsServer = await startMetricsServer(metrics.registry, config.METRICS_HOST, config.METRICS_PORT, () => ready);
  const webhooks = await runWebhooks({
    kafka,
    db: mongo.db,
    logger,
    metrics,
    policy: { minMs: config.WEBHOOK_RETRY_MIN_MS, maxMs: config.WEBHOOK_RETRY_MAX_MS, deadLetterAfterMs: config.WEBHOOK_DEAD_LETTER_AFTER_MS },
    outbound: { allowLoopback: config.WEBHOOKS_LOCAL === 'on', timeoutMs: config.WEBHOOK_TIMEOUT_MS, maxResponseBytes: config.WEBHOOK_MAX_RESPONSE_BYTES },
    refreshMs: config.WEBHOOK_REFRESH_MS,
  });
  await announceWait(logger, 'the first read of the webhook registrations', webhooks.ready);
  ready = true;
  logger.info({ metrics_port: metricsServer.port }, 'webhooks running');

  return async () => {
    logger.info('stopping webhooks');
    await webhooks.stop();
    await metricsServer.close();
    await backbone.close();
  };
});
