import { countsCollectionName, ensureIndexes, ModelDocuments, type Store, type ReadModelVersion } from '@herald/mongo';
import { runConsumer, type ConsumerSpec, type EventProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { applyProjection } from './apply-projection.ts';
import { applyCounted } from './apply-counted.ts';
import { applyTogether } from './apply-together.ts';
import { type AnyProjection, COUNTER_INDEXES, type CounterDocument, type ProjectedDocument } from '@herald/read-models';
import { countedWrites, startOver } from './written-documents.ts';
import { anyDue, firstHeld } from './held-documents.ts';

export interface ProjectionDeps {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Store;
  logger: Logger;
}

/**
 * Records per write round: one insertMany (or a few replace slices) per
 * chunk. Each store command has a fixed cost (on FerretDB/SQLite a commit),
 * so a new-document chunk of up to 2,000 is one command instead of four.
 */
export const PROJECTION_CHUNK = 2_000;

/**
 * Partitions handled at once. Each document's events share a key, so one
 * partition: their chunks never touch the same document, and those that
 * arrive while the store is busy are applied together (applyTogether).
 */
export const PROJECTION_PARTITIONS_AT_ONCE = 6;

/**
 * How often a projection's consumer commits its positions. Applying a
 * record twice changes nothing (every write is keyed and versioned), so a
 * crash redoes at most this much; committing after every chunk cost one
 * OffsetCommit per chunk (3,095 for 4,000 one-device sends).
 */
export const PROJECTION_COMMIT_INTERVAL_MS = 1_000;

/** How often a projection that holds documents looks for those whose time is up when no records come. */
export const HELD_CHECK_MS = 250;

/** Runs one projection into one read-model version, with that version's consumer group. */
export async function runProjection(
  deps: ProjectionDeps,
  projection: AnyProjection,
  version: ReadModelVersion,
  options: Pick<ConsumerSpec, 'onChunkDone'> & { holdMs?: number } = {},
): Promise<RunningConsumer> {
  const logger = deps.logger.child({ model: projection.name, version: version.version });
  await ensureIndexes(deps.db, version.collection, projection.indexes);
  const documents = await ModelDocuments.of<ProjectedDocument>(deps.db, version.collection);
  const counted = projection.counts !== undefined;
  const counters = await ModelDocuments.of<CounterDocument>(deps.db, countsCollectionName(version.collection));
  if (counted) await ensureIndexes(deps.db, counters.name, COUNTER_INDEXES);
  // What a counted projection's consumer wrote last, not read again while it keeps its partitions (written-documents.ts).
  const written = counted ? countedWrites<ProjectedDocument, CounterDocument>(options.holdMs) : undefined;
  const holds = written !== undefined && projection.hold !== undefined;
  const apply = applyTogether(async (records) => {
    if (written !== undefined) await applyCounted(projection, documents, counters, records, written);
    else await applyProjection(projection, documents, records, logger);
  });
  const consumer = await runConsumer({
    kafka: deps.kafka,
    producer: deps.producer,
    groupId: version.group,
    topics: projection.topics,
    logger,
    maxChunkSize: PROJECTION_CHUNK,
    partitionsConsumedConcurrently: PROJECTION_PARTITIONS_AT_ONCE,
    commitIntervalMs: PROJECTION_COMMIT_INTERVAL_MS,
    ...(projection.fetch === undefined ? {} : { fetch: projection.fetch }),
    ...(projection.types === undefined ? {} : { types: new Set(projection.types) }),
    ...(holds ? { heldFrom: (topic: string, partition: number) => firstHeld(written.held, topic, partition) } : {}),
    onAssigned: () => startOver(written),
    handle: apply,
    ...(options.onChunkDone === undefined ? {} : { onChunkDone: options.onChunkDone }),
  });
  if (!holds) return consumer;
  // Held documents whose time is up are written by the next apply; when no records come, by this one (with none).
  const writeDue = (now: number) => {
    if (!anyDue(written.held, now)) return Promise.resolve();
    return apply([]).catch((error: unknown) => logger.warn({ err: error }, 'writing held documents failed; trying again'));
  };
  const timer = setInterval(() => void writeDue(Date.now()), HELD_CHECK_MS);
  timer.unref();
  return {
    ready: consumer.ready,
    stop: async () => {
      clearInterval(timer);
      // What it holds is written before it stops (a rebuild ends complete); what comes meanwhile stays uncommitted.
      for (const entry of written.held.values()) entry.until = 0;
      await writeDue(Date.now());
      await consumer.stop();
    },
  };
}
