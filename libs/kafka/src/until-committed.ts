import { isRebalance, isRetriable } from '@herald/errors';
import { DEFAULT_BACKOFF, retry, RetryStopped } from '@herald/retry';
import { classifyKafkaError } from './kafka-errors.ts';

/** What a chunk's commit asks of its consumer before each attempt. */
export interface CommitGate {
  /** The partition is still this member's (no rebalance took it). */
  owned(): boolean;
  /** The consumer runs on (false once it is stopping: Ctrl-C, a deploy). */
  running(): boolean;
}

/**
 * Whether attempt `attempt` (from 1) of a chunk's commit may be made (pure
 * over the gate). Never once the partition moved: its next owner redoes the
 * chunk. While the consumer stops, the first attempt still is: the chunk's
 * work is done (a sender's pushes went out) and the partition is this
 * member's until it leaves the group, so a graceful stop commits it instead
 * of leaving it to be redone (re-sent) after the restart. Only a running
 * consumer retries, so a Kafka outage never holds a stop.
 */
export function mayCommit(gate: CommitGate, attempt: number): boolean {
  return gate.owned() && (attempt === 1 || gate.running());
}

/**
 * Retries a transaction commit (the chunk's work is done and must not be
 * done again) through Kafka outages with back-off, while `mayCommit` lets
 * it. False: nothing was committed (the partition moved, or the consumer
 * stopped after a failed attempt).
 */
export async function untilCommitted(commit: () => Promise<void>, gate: CommitGate, onRetry: (error: unknown, attempt: number) => void): Promise<boolean> {
  let attempt = 0;
  try {
    await retry(commit, {
      backoff: DEFAULT_BACKOFF,
      active: () => mayCommit(gate, (attempt += 1)),
      classify: (raw) => {
        const error = classifyKafkaError(raw);
        return { retry: !isRebalance(error) && isRetriable(error), error };
      },
      onRetry: (error, failed) => onRetry(error, failed),
    });
    return true;
  } catch (error) {
    if (error instanceof RetryStopped) return false;
    throw error;
  }
}
