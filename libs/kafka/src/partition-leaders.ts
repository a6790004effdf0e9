import type { HeraldKafka } from './create-kafka.ts';

/** Partitions each broker (node id) leads among `topics` (physical names); a partition without a leader is not counted. */
export async function partitionLeaders(kafka: HeraldKafka, topics: readonly string[]): Promise<Map<number, number>> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const { topics: described } = await admin.fetchTopicMetadata({ topics: [...topics] });
    return countLeaders(described.flatMap((topic) => topic.partitions.map((partition) => partition.leader)));
  } finally {
    await admin.disconnect();
  }
}

/** Partitions per leader (pure); -1 (no leader) is left out. */
export function countLeaders(leaders: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const leader of leaders) if (leader >= 0) counts.set(leader, (counts.get(leader) ?? 0) + 1);
  return counts;
}

/** The broker leading the most partitions (pure); the lowest node id on a tie, undefined when none leads any. */
export function busiestLeader(counts: ReadonlyMap<number, number>): number | undefined {
  let best: number | undefined;
  for (const [node, count] of [...counts].sort(([a], [b]) => a - b)) if (best === undefined || count > counts.get(best)!) best = node;
  return best;
}
