import { isRebalance, isRetriable } from '@herald/errors';
import { DEFAULT_BACKOFF, retry, RetryStopped } from '@herald/retry';
import { classifyKafkaError } from './kafka-errors.ts';

/**
 * Retries a transaction commit (the chunk's work is done and must not be
 * done again) through Kafka outages with back-off, while the partition is
 * still this member's. False: the partition moved, nothing was committed.
 */
export async function untilCommitted(commit: () => Promise<void>, active: () => boolean, onRetry: (error: unknown, attempt: number) => void): Promise<boolean> {
  try {
    await retry(commit, {
      backoff: DEFAULT_BACKOFF,
      active,
      classify: (raw) => {
        const error = classifyKafkaError(raw);
        return { retry: !isRebalance(error) && isRetriable(error), error };
      },
      onRetry: (error, attempt) => onRetry(error, attempt),
    });
    return true;
  } catch (error) {
    if (error instanceof RetryStopped) return false;
    throw error;
  }
}
