import { setTimeout as sleep } from 'node:timers/promises';
import { isRebalance, isRetriable } from '@herald/errors';
import { classifyKafkaError } from './kafka-errors.ts';
import { backoffDelay, DEFAULT_BACKOFF } from './process-chunk.ts';

/**
 * Retries a transaction commit (the chunk's work is done and must not be
 * done again) through Kafka outages with back-off, while the partition is
 * still this member's. False: the partition moved, nothing was committed.
 */
export async function untilCommitted(commit: () => Promise<void>, active: () => boolean, onRetry: (error: unknown, attempt: number) => void): Promise<boolean> {
  for (let attempt = 1; active(); attempt += 1) {
    try {
      await commit();
      return true;
    } catch (raw) {
      const error = classifyKafkaError(raw);
      if (isRebalance(error) || !isRetriable(error)) throw error;
      onRetry(error, attempt);
      await sleep(backoffDelay(attempt, DEFAULT_BACKOFF, Math.random()));
    }
  }
  return false;
}
