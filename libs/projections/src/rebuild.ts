import { ReadModelRegistry, readModelVersion, type ReadModelName, type ReadModelVersion } from '@herald/mongo';
import { allAtEnd, topicEnds, type PartitionEnd } from '@herald/kafka';
import { PROJECTIONS } from './catalog.ts';
import { runProjection, type ProjectionDeps } from './run-projection.ts';

export interface RebuildPlan {
  model: ReadModelName;
  from: ReadModelVersion;
  to: ReadModelVersion;
  topics: readonly string[];
  /** Records in the topics when the plan was made: the work to replay. */
  events: number;
  ends: Map<string, PartitionEnd[]>;
}

export async function planRebuild(deps: ProjectionDeps, model: ReadModelName): Promise<RebuildPlan> {
  const registry = new ReadModelRegistry(deps.db, { cacheMs: 0 });
  const { active, retired } = await registry.versions(model);
  const next = Math.max(active.version, ...retired.map((version) => version.version)) + 1;
  const projection = PROJECTIONS[model];
  const ends = new Map<string, PartitionEnd[]>();
  let events = 0;
  for (const topic of projection.topics) {
    const topicEnd = await topicEnds(deps.kafka, topic);
    ends.set(topic, topicEnd);
    for (const end of topicEnd) events += end.high - end.low;
  }
  return { model, from: active, to: readModelVersion(model, next), topics: projection.topics, events, ends };
}

/**
 * Replays the model's topics from the earliest offset into a new collection
 * version with a new consumer group, until it reaches the ends recorded in
 * the plan; then switches readers to it in one update. The running
 * projector follows the switch and continues with the new group from where
 * the rebuild stopped. The old version stays until dropped.
 */
export async function rebuildReadModel(deps: ProjectionDeps, plan: RebuildPlan, onProgress: (done: number) => void): Promise<void> {
  await new ReadModelRegistry(deps.db).dropVersion(plan.to);
  /** Next offset per partition: a chunk's last offset counts the transaction markers after its last record. */
  const positions = new Map<string, Map<number, number>>(plan.topics.map((topic) => [topic, new Map()]));
  let done = 0;
  let finished!: () => void;
  const caughtUp = new Promise<void>((resolve) => (finished = resolve));
  const check = () => {
    if (plan.topics.every((topic) => allAtEnd(plan.ends.get(topic) ?? [], (partition) => positions.get(topic)!.get(partition)))) finished();
  };
  const consumer = await runProjection(deps, PROJECTIONS[plan.model], plan.to, {
    onChunkDone: ({ topic, partition, lastOffset, count }) => {
      positions.get(topic)?.set(partition, lastOffset + 1);
      done += count;
      onProgress(done);
      check();
    },
  });
  try {
    check();
    await caughtUp;
  } finally {
    await consumer.stop();
  }
  await new ReadModelRegistry(deps.db).switchTo(plan.model, plan.to);
}
