import { loadConfig, redactConfig, runProcess } from '@herald/config';
import { createLogger } from '@herald/log';
import { startMetricsServer } from '@herald/metrics';
import { connectBackbone } from '@herald/runtime';
import { ProjectorConfig } from './config.ts';
import { startProjector } from './start-projector.ts';

await runProcess('projector', async () => {
  const config = loadConfig(ProjectorConfig, process.env);
  const logger = createLogger({ name: 'projector', level: config.LOG_LEVEL });
  logger.info({ config: redactConfig(config) }, 'starting projector');

  const backbone = await connectBackbone('projector', config, logger);
  const { metrics, kafka, mongo, producer } = backbone;
  const projector = await startProjector({ kafka, producer, db: mongo.db, logger });
  const metricsServer = await startMetricsServer(metrics.registry, config.METRICS_HOST, config.METRICS_PORT);
  await projector.ready;
  logger.info({ metrics_port: metricsServer.port }, 'projector consuming');

  return async () => {
    logger.info('stopping projector');
    await projector.stop();
    await metricsServer.close();
    await backbone.close();
  };
});
