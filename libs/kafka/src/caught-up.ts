import type { PartitionEnd } from './offsets.ts';

/**
 * "Caught up with a topic", decided here and nowhere else.
 *
 * Herald writes several topics in Kafka transactions. Each transaction ends
 * with a commit or abort marker: a record that takes an offset but that no
 * consumer is ever handed. So a partition's end can sit past its last record
 * (3 records and 3 markers: end 6, last record 4), and a reader that
 * compares the last record it saw with the end waits for ever.
 *
 * The rule: a reader is at the end of a partition when its *position* (the
 * next offset it will fetch, which moves past markers and aborted records:
 * kafkajs reports it as a batch's `lastOffset` + 1, control batches
 * included) has reached the partition's end (`PartitionEnd.high`). A
 * partition with nothing stored (`high <= low`) is at its end from any
 * position.
 *
 * The end is the high watermark, not the last stable offset: it counts the
 * records of a transaction still open, so a reader reaches it only once
 * that transaction ends. That is what exact audiences need (a record
 * acknowledged before a send, even one written after another producer's
 * open transaction, is read before the send's audience is taken). A
 * transaction left open by a killed process ends when that process's
 * successor starts its producer (the same transactional id fences and
 * aborts it) or, at the latest, at the broker's transaction timeout.
 */
export function atEnd(position: number, end: PartitionEnd): boolean {
  return end.high <= end.low || position >= end.high;
}

/** Whether every partition of `ends` is at its end, given each partition's position (missing: its `low`, nothing read yet). */
export function allAtEnd(ends: readonly PartitionEnd[], positionOf: (partition: number) => number | undefined): boolean {
  return ends.every((end) => atEnd(positionOf(end.partition) ?? end.low, end));
}

/** The partitions of `ends` not at their end yet, with how far each still has to go: what a start-up wait reports while it waits. */
export function behind(ends: readonly PartitionEnd[], positionOf: (partition: number) => number | undefined): Array<{ partition: number; position: number; end: number }> {
  return ends
    .filter((end) => !atEnd(positionOf(end.partition) ?? end.low, end))
    .map((end) => ({ partition: end.partition, position: positionOf(end.partition) ?? end.low, end: end.high }));
}
