import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { createLogger } from '@herald/log';
import { ensureAdminIndexes, ReadModelRegistry } from '@herald/mongo';
import { AdminStore, IdempotencyStore } from '@herald/admin';
import { startMetricsServer } from '@herald/metrics';
import { connectBackbone, fileClock } from '@herald/runtime';
import { ApiConfig } from './config.ts';
import { buildApp } from './build-app.ts';
import { httpOptions } from './http-options.ts';
import { readinessCheck } from './readiness.ts';
import { API_EXPLAIN_LIMITS } from '@herald/explain';

await runProcess('api', async () => {
  const config = loadConfig(ApiConfig, process.env);
  const logger = createLogger({ name: 'api', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config) }, 'starting api');

  const backbone = await connectBackbone('api', config, logger);
  const { metrics, kafka, mongo, producer } = backbone;
  await ensureAdminIndexes(mongo.db);
  // Send idempotency keys expire after 24 h by a TTL index, or (FerretDB 1.x, which has none) when a claim finds them expired.
  logger.info({ expiry: await new IdempotencyStore(mongo.db).ensureIndexes() }, 'idempotency keys expire');

  const app = await buildApp(
    {
      producer,
      db: mongo.db,
      admin: new AdminStore(mongo.db),
      readModels: new ReadModelRegistry(mongo.db),
      metrics,
      checkReady: readinessCheck(kafka, mongo.db),
      clock: fileClock(config.HERALD_CLOCK_FILE),
      kafka,
      ...(config.CONSOLE_DIR === undefined ? {} : { consoleDir: config.CONSOLE_DIR }),
      explainLimits: { ...API_EXPLAIN_LIMITS, maxRecords: config.EXPLAIN_MAX_RECORDS, timeoutMs: config.EXPLAIN_TIMEOUT_MS },
      eventStreams: { perProcess: config.EVENT_STREAMS_PER_PROCESS, perProject: config.EVENT_STREAMS_PER_PROJECT, maxDurationMs: config.EVENT_STREAM_MAX_MS },
      devicePolicy: {
        projectDeviceQuota: config.PROJECT_DEVICE_QUOTA,
        anonymousDevicePercent: config.PROJECT_ANONYMOUS_DEVICE_PERCENT,
        maxDeviceBytes: config.DEVICE_MAX_BYTES,
        quotaRecountMs: config.DEVICE_QUOTA_RECOUNT_MS,
        webPushLocal: config.WEBPUSH_LOCAL === 'on',
        webPushHosts: config.WEBPUSH_ENDPOINT_HOSTS.split(','),
      },
      apiKeyCacheMs: config.API_KEY_CACHE_MS,
      ...(config.HERALD_ADMIN_TOKEN === undefined ? {} : { operator: { token: config.HERALD_ADMIN_TOKEN, perAddress: config.RATE_LIMIT_ADMIN_PER_ADDRESS, windowMs: config.RATE_LIMIT_WINDOW_MS } }),
      webhooks: { perProject: config.WEBHOOKS_PER_PROJECT, local: config.WEBHOOKS_LOCAL === 'on' },
    },
    logger,
    httpOptions(config),
  );
  // Prometheus scrapes its own port, like the projector's and delivery's: /metrics is not public.
  const metricsServer = await startMetricsServer(metrics.registry, config.METRICS_HOST, config.METRICS_PORT);
  logger.info({ port: metricsServer.port }, 'api metrics listening');
  await app.listen({ host: config.HOST, port: config.PORT });

  return async () => {
    // Every request has had its answer (or its 503) by the request deadline; a connection still open past it (a
    // keep-alive socket whose response ended after the close began, a client that never reads) is cut, so a
    // stop fits the process's deadline.
    const cut = setTimeout(() => app.server.closeAllConnections(), config.REQUEST_DEADLINE_MS + 500);
    cut.unref();
    await app.close();
    clearTimeout(cut);
    await metricsServer.close();
    await backbone.close();
  };
});
