import type { Db } from '@herald/mongo';
import { ensureIndexes } from '@herald/mongo';
import { runConsumer, type EventProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { applyProjection } from './apply-projection.ts';
import { consumerGroupFor, type Projection, type ProjectedDocument } from './projections/projection.ts';
import { devicesProjection } from './projections/devices.ts';
import { topicsProjection } from './projections/topics.ts';

export const PROJECTIONS: ReadonlyArray<Projection<ProjectedDocument>> = [
  devicesProjection,
  topicsProjection,
];

export interface ProjectorDeps {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Db;
  logger: Logger;
  projections?: ReadonlyArray<Projection<ProjectedDocument>>;
}

export interface RunningProjector {
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** One consumer group per read model, so each can be rebuilt or lag on its own. */
export async function startProjector(deps: ProjectorDeps): Promise<RunningProjector> {
  const projections = deps.projections ?? PROJECTIONS;
  await ensureIndexes(deps.db, projections.map((projection) => projection.name));
  const consumers: RunningConsumer[] = [];
  for (const projection of projections) {
    const logger = deps.logger.child({ model: projection.name });
    const collection = deps.db.collection<ProjectedDocument>(projection.name);
    consumers.push(
      await runConsumer({
        kafka: deps.kafka,
        producer: deps.producer,
        groupId: consumerGroupFor(projection),
        topics: projection.topics,
        logger,
        handle: async (records) => {
          await applyProjection(projection, collection, records, logger);
        },
      }),
    );
  }
  return {
    ready: Promise.all(consumers.map((consumer) => consumer.ready)).then(() => undefined),
    stop: async () => {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
    },
  };
}
