/**
 * Positions of an idempotent consumer, committed on an interval instead of
 * after every chunk. kafkajs' auto-commit commits after each fetched batch
 * (its `autoCommitInterval` only applies to `commitOffsetsIfNecessary`, not
 * to the commit the runner makes after every batch), which for a projector
 * taking many small batches was one OffsetCommit per batch. A consumer whose
 * handler is idempotent loses nothing by committing less often: after a
 * crash or a rebalance its partitions' new owner redoes at most one
 * interval's records.
 */
export interface PartitionPosition {
  topic: string;
  partition: number;
  /** The next offset to read (what Kafka stores as the committed offset). */
  offset: string;
}

export class PendingPositions {
  readonly #next = new Map<string, PartitionPosition>();
  /** The position last committed below a partition's done one because of a cap: not committed again until it moves. */
  readonly #capped = new Map<string, string>();

  /** A chunk up to `lastOffset` is done on this partition. Positions only move forward. */
  done(topic: string, partition: number, lastOffset: number): void {
    const key = `${topic}\u0000${partition}`;
    const current = this.#next.get(key);
    if (current !== undefined && Number(current.offset) > lastOffset) return;
    this.#next.set(key, { topic, partition, offset: String(lastOffset + 1) });
  }

  /**
   * What to commit now. `cap` gives, per partition, the first offset the
   * handler still holds unwritten (run-consumer.ts `heldFrom`): the position
   * committed stays there, and the done one waits for a later take.
   * Everything else is taken: pending is empty of it afterwards.
   */
  take(cap?: (topic: string, partition: number) => number | undefined): PartitionPosition[] {
    const positions: PartitionPosition[] = [];
    for (const [key, position] of this.#next) {
      const limit = cap?.(position.topic, position.partition);
      if (limit === undefined || limit >= Number(position.offset)) {
        positions.push(position);
        this.#next.delete(key);
        this.#capped.delete(key);
        continue;
      }
      const offset = String(limit);
      if (this.#capped.get(key) === offset) continue;
      this.#capped.set(key, offset);
      positions.push({ ...position, offset });
    }
    return positions;
  }

  /**
   * After the group was joined again: positions held for partitions this
   * member may no longer own are dropped, never committed over their new
   * owner's (the broker does not check ownership of a commit). The records
   * since the last commit are redone, which an idempotent handler allows.
   */
  forget(): void {
    this.#next.clear();
    this.#capped.clear();
  }
}
