import type { HeraldKafka } from './create-kafka.ts';

export interface PartitionEnd {
  partition: number;
  /** First offset still stored. */
  low: number;
  /** Next offset to be written (the high watermark). */
  high: number;
}

/** The high watermark of every partition, indexed by partition number (admin answers come in no particular order). */
export function highsByPartition(ends: readonly PartitionEnd[]): number[] {
  const highs = new Array<number>(ends.length).fill(0);
  for (const end of ends) highs[end.partition] = end.high;
  return highs;
}

/** Records per partition between a committed offset and the end; -1 (nothing committed) counts from `low`. */
export function partitionLag(end: PartitionEnd, committed: number): number {
  const from = committed < 0 ? end.low : Math.max(committed, end.low);
  return Math.max(0, end.high - from);
}

/** Whether every partition has been consumed up to its end, given the last offset done per partition. */
export function reachedEnds(ends: readonly PartitionEnd[], lastDone: ReadonlyMap<number, number>): boolean {
  return ends.every((end) => end.high <= end.low || (lastDone.get(end.partition) ?? -1) >= end.high - 1);
}

/** End offsets of a topic (logical name). */
export async function topicEnds(kafka: HeraldKafka, logicalTopic: string): Promise<PartitionEnd[]> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(kafka.topic(logicalTopic));
    return offsets.map((item) => ({ partition: item.partition, low: Number(item.low), high: Number(item.high) }));
  } finally {
    await admin.disconnect();
  }
}

export interface GroupLag {
  group: string;
  topic: string;
  lag: number;
  partitions: number;
}

/**
 * Lag per (group, topic), logical names. `known` lists groups with the topics
 * they consume, so a group that has committed nothing yet still shows its
 * full lag; other groups whose names start with `groupPrefix` are added with
 * whatever topics they have committed offsets for.
 */
export async function consumerGroupLag(
  kafka: HeraldKafka,
  known: ReadonlyArray<{ group: string; topics: readonly string[] }>,
  groupPrefix: string,
): Promise<GroupLag[]> {
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const knownNames = new Set(known.map((item) => kafka.group(item.group)));
    const others = groups
      .map((group) => group.groupId)
      .filter((id) => id.startsWith(kafka.group(groupPrefix)) && !knownNames.has(id))
      .sort();
    const rows: GroupLag[] = [];
    const addRows = async (groupId: string, topics: readonly string[] | undefined) => {
      const committed = await admin.fetchOffsets(topics === undefined ? { groupId } : { groupId, topics: [...topics] });
      for (const { topic, partitions } of committed) {
        const ends = await admin.fetchTopicOffsets(topic);
        let lag = 0;
        for (const end of ends) {
          const done = partitions.find((partition) => partition.partition === end.partition);
          lag += partitionLag({ partition: end.partition, low: Number(end.low), high: Number(end.high) }, Number(done?.offset ?? -1));
        }
        rows.push({ group: groupId.slice(kafka.prefix.length), topic: topic.slice(kafka.prefix.length), lag, partitions: ends.length });
      }
    };
    for (const item of known) await addRows(kafka.group(item.group), item.topics.map((topic) => kafka.topic(topic)));
    for (const groupId of others) await addRows(groupId, undefined);
    return rows;
  } finally {
    await admin.disconnect();
  }
}

/**
 * How long a fetch waits at the broker when nothing is there. The broker
 * answers as soon as a record arrives (minBytes 1), so this does not delay
 * any record: it only bounds how often an idle consumer asks (each of a
 * process's consumers once per this; at 100 ms an idle stack's fetches cost
 * a quarter of a core).
 */
export const IDLE_FETCH_WAIT_MS = 500;
