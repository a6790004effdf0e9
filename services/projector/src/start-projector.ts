import { ReadModelRegistry, type Store, type ReadModelName, type ReadModelVersion } from '@herald/mongo';
import type { EventProducer, HeraldKafka, RunningConsumer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { PROJECTIONS, runProjection } from '@herald/projections';

export interface ProjectorDeps {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Store;
  logger: Logger;
  models?: readonly ReadModelName[];
  /** How often to look for a switched read-model version (after `herald replay`). */
  pollMs?: number;
}

export interface RunningProjector {
  ready: Promise<void>;
  stop(): Promise<void>;
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
