import type { HeraldKafka } from './create-kafka.ts';

export interface PartitionEnd {
  partition: number;
  /** First offset still stored. */
  low: number;
  /**
   * Next offset to be written (the high watermark). Whether a reader has
   * reached it is decided by caught-up.ts, never by comparing a record's
   * offset with it (transaction markers take offsets too).
   */
  high: number;
}

/** The high watermark of every partition, indexed by partition number (admin answers come in no particular order). */
export function highsByPartition(ends: readonly PartitionEnd[]): number[] {
  const highs = new Array<number>(ends.length).fill(0);
  for (const end of ends) highs[end.partition] = end.high;
  return highs;
}

/** Offsets per partition between a committed offset and the end (markers included: an upper bound of the records); -1 (nothing committed) counts from `low`. */
export function partitionLag(end: PartitionEnd, committed: number): number {
  return Math.max(0, end.high - lagFrom(end, committed));
}

/** Where a group's unread part of a partition starts: its committed offset, or the partition's first stored offset when nothing is committed. */
export function lagFrom(end: PartitionEnd, committed: number): number {
  return committed < 0 ? end.low : Math.max(committed, end.low);
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

/**
 * How long a fetch waits at the broker when nothing is there. The broker
 * answers as soon as a record arrives (minBytes 1), so this does not delay
 * any record: it only bounds how often an idle consumer asks (each of a
 * process's consumers once per this; at 100 ms an idle stack's fetches cost
 * a quarter of a core).
 */
export const IDLE_FETCH_WAIT_MS = 500;
