import { ensureIndexes, ReadModelRegistry, type Db, type ReadModelName, type ReadModelVersion } from '@herald/mongo';
import { runConsumer, type EventProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { applyProjection, PROJECTIONS, type AnyProjection } from '@herald/projections';

export interface ProjectorDeps {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Db;
  logger: Logger;
  models?: readonly ReadModelName[];
  /** How often to look for a switched read-model version (after `herald replay`). */
  pollMs?: number;
}

export interface RunningProjector {
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** Runs one projection into one read-model version with its own consumer group. */
export async function runProjection(
  deps: Pick<ProjectorDeps, 'kafka' | 'producer' | 'db' | 'logger'>,
  projection: AnyProjection,
  version: ReadModelVersion,
  options: { onChunkDone?: Parameters<typeof runConsumer>[0]['onChunkDone'] } = {},
): Promise<RunningConsumer> {
  const logger = deps.logger.child({ model: projection.name, version: version.version });
  await ensureIndexes(deps.db, projection.name, version.collection);
  const collection = deps.db.collection(version.collection);
  return runConsumer({
    kafka: deps.kafka,
    producer: deps.producer,
    groupId: version.group,
    topics: projection.topics,
    logger,
    handle: async (records) => {
      await applyProjection(projection, collection as never, records, logger);
    },
    ...(options.onChunkDone === undefined ? {} : { onChunkDone: options.onChunkDone }),
  });
}

/**
 * One consumer group per read model, so each can be rebuilt or lag on its
 * own. Each follows its model's active version: when `herald replay`
 * switches readers to a rebuilt version, the projector moves to that
 * version's consumer group (which continues where the rebuild stopped).
 */
export async function startProjector(deps: ProjectorDeps): Promise<RunningProjector> {
  const registry = new ReadModelRegistry(deps.db, { cacheMs: 0 });
  const models = deps.models ?? (Object.keys(PROJECTIONS) as ReadModelName[]);
  const running = new Map<ReadModelName, { version: ReadModelVersion; consumer: RunningConsumer }>();

  const start = async (model: ReadModelName, version: ReadModelVersion) => {
    const consumer = await runProjection(deps, PROJECTIONS[model], version);
    running.set(model, { version, consumer });
    deps.logger.info({ model, version: version.version, collection: version.collection }, 'projecting');
    return consumer;
  };
  const consumers = await Promise.all(models.map(async (model) => start(model, await registry.active(model))));

  let following = Promise.resolve();
  const follow = async () => {
    for (const model of models) {
      const active = await registry.active(model);
      const current = running.get(model);
      if (current === undefined || current.version.version === active.version) continue;
      deps.logger.info({ model, from: current.version.version, to: active.version }, 'read model switched; following');
      await current.consumer.stop();
      await start(model, active);
    }
  };
  const timer = setInterval(() => {
    following = following.then(follow).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not follow read-model versions'));
  }, deps.pollMs ?? 2000);

  return {
    ready: Promise.all(consumers.map((consumer) => consumer.ready)).then(() => undefined),
    stop: async () => {
      clearInterval(timer);
      await following;
      await Promise.all([...running.values()].map(({ consumer }) => consumer.stop()));
    },
  };
}
