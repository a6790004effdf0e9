import { ensureIndexes, type Db, type ReadModelVersion } from '@herald/mongo';
import { runConsumer, type ConsumerSpec, type EventProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { applyProjection } from './apply-projection.ts';
import type { AnyProjection } from './projection.ts';

export interface ProjectionDeps {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Db;
  logger: Logger;
}

/** Runs one projection into one read-model version, with that version's consumer group. */
export async function runProjection(
  deps: ProjectionDeps,
  projection: AnyProjection,
  version: ReadModelVersion,
  options: Pick<ConsumerSpec, 'onChunkDone'> = {},
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
