import type { IndexStatements } from './index-tables.ts';

/** What a checkpoint counts: device-events (`d`) or topic-events (`t`) offsets. */
export type CheckpointKind = 'd' | 't';

/**
 * The next offset to apply per partition of each log the index follows, kept
 * in its `checkpoints` table and in memory once read: every fan-out task asks
 * for its partition's (`waitFor`), and only `move` changes one, in the same
 * transaction as the work it applied.
 */
export class IndexCheckpoints {
  readonly #statements: IndexStatements;
  /** Checkpoints read or committed, by kind and partition. */
  readonly #applied = new Map<string, number>();

  constructor(statements: IndexStatements) {
    this.#statements = statements;
  }

  /** The next offset to apply on `partition` (0: nothing applied). */
  next(kind: CheckpointKind, partition: number): number {
    const key = `${kind}${partition}`;
    let next = this.#applied.get(key);
    if (next === undefined) {
      next = (this.#statements.checkpointGet.get(kind, partition) as { next: number } | undefined)?.next ?? 0;
      this.#applied.set(key, next);
    }
    return next;
  }

  /** Runs `work` and moves a checkpoint in one transaction; memory follows once it committed (a rollback leaves both as they were). */
  move(kind: CheckpointKind, partition: number, next: number, work: () => void): void {
    inTransaction(this.#statements, () => {
      work();
      this.#statements.checkpointPut.run(kind, partition, next);
    });
    this.#applied.set(`${kind}${partition}`, next);
  }

  /** Every checkpoint of a kind, by partition (for the group's assignment). */
  all(kind: CheckpointKind): Record<string, number> {
    const found: Record<string, number> = {};
    for (const row of this.#statements.checkpointsOf.all(kind) as Array<{ partition: number; next: number }>) found[String(row.partition)] = row.next;
    return found;
  }
}

/** Runs `work` in one transaction: all of it or, if it throws, none. */
function inTransaction(statements: IndexStatements, work: () => void): void {
  statements.begin.run();
  try {
    work();
    statements.commit.run();
  } catch (error) {
    statements.rollback.run();
    throw error;
  }
}
