import { isRebalance, isRetriable } from '@herald/errors';
import type { ConsumedEvent } from '@herald/events';
import { DEFAULT_BACKOFF, retry, RetryStopped, type BackoffPolicy, type Clock } from '@herald/retry';
import type { SourceRecord } from './dead-letter.ts';

/** A decoded event with its Kafka position (defined with the events, so read models need no Kafka client). */
export type { ConsumedEvent } from '@herald/events';

export interface Letter {
  record: SourceRecord;
  error: unknown;
}

/**
 * The stages a chunk of one partition goes through, passed in so the logic
 * runs the same against Kafka or an in-memory source in unit tests.
 */
export interface ChunkStages {
  decode(record: SourceRecord): ConsumedEvent;
  handle(records: ConsumedEvent[]): Promise<void>;
  deadLetter(letters: readonly Letter[]): Promise<void>;
  /** Maps a raw failure to what it means (e.g. kafkajs errors to AppErrors). */
  classify(error: unknown): unknown;
  /** False once the chunk must be given up (consumer stopping, partition revoked). */
  active(): boolean;
  /** Waits between retries of infrastructure failures. */
  clock: Clock;
  onRetry?(error: unknown, attempt: number): void;
}

export type ChunkOutcome =
  | { kind: 'done'; handled: number; deadLettered: number }
  /** Nothing of the chunk may be committed: its offsets stay for whoever owns the partition next. */
  | { kind: 'abandoned'; reason: 'rebalance' | 'stopped'; error?: unknown };

class Abandon extends Error {
  readonly reason: 'rebalance' | 'stopped';
  readonly error: unknown;

  constructor(reason: 'rebalance' | 'stopped', error?: unknown) {
    super(`chunk abandoned: ${reason}`);
    this.reason = reason;
    this.error = error;
  }
}

/**
 * Retries `work` while it fails for a retriable reason, with no attempt cap:
 * an infrastructure failure says nothing about the record, so giving up on
 * it would lose work. A rebalance or a stop abandons the chunk; a permanent
 * failure is thrown for the caller to judge.
 */
async function untilDone<T>(stages: ChunkStages, policy: BackoffPolicy, work: () => Promise<T>): Promise<T> {
  try {
    return await retry(work, {
      backoff: policy,
      clock: stages.clock,
      active: () => stages.active(),
      classify: (raw) => {
        const error = stages.classify(raw);
        if (isRebalance(error)) return { retry: false, error: new Abandon('rebalance', error) };
        return { retry: isRetriable(error), error };
      },
      ...(stages.onRetry === undefined ? {} : { onRetry: (error: unknown, attempt: number) => stages.onRetry?.(error, attempt) }),
    });
  } catch (error) {
    if (error instanceof RetryStopped) throw new Abandon('stopped');
    throw error;
  }
}

/**
 * decode → dead-letter the undecodable → handle the chunk; if the chunk
 * fails permanently, handle its records one by one and dead-letter only
 * the ones that fail permanently on their own. Resolves `done` only when
 * every record is handled or dead-lettered, so the caller may commit.
 */
export async function processChunk(chunk: readonly SourceRecord[], stages: ChunkStages, policy: BackoffPolicy = DEFAULT_BACKOFF): Promise<ChunkOutcome> {
  const records: ConsumedEvent[] = [];
  const sources = new Map<number, SourceRecord>();
  const undecodable: Letter[] = [];
  for (const record of chunk) {
    try {
      const decoded = stages.decode(record);
      records.push(decoded);
      sources.set(decoded.offset, record);
    } catch (error) {
      undecodable.push({ record, error });
    }
  }
  let deadLettered = undecodable.length;
  try {
    if (undecodable.length > 0) await untilDone(stages, policy, () => stages.deadLetter(undecodable));
    if (records.length === 0) return { kind: 'done', handled: 0, deadLettered };
    try {
      await untilDone(stages, policy, () => stages.handle(records));
      return { kind: 'done', handled: records.length, deadLettered };
    } catch (error) {
      if (error instanceof Abandon) throw error;
    }
    let handled = 0;
    for (const record of records) {
      try {
        await untilDone(stages, policy, () => stages.handle([record]));
        handled += 1;
      } catch (error) {
        if (error instanceof Abandon) throw error;
        const letter: Letter = { record: sources.get(record.offset)!, error: stages.classify(error) };
        await untilDone(stages, policy, () => stages.deadLetter([letter]));
        deadLettered += 1;
      }
    }
    return { kind: 'done', handled, deadLettered };
  } catch (error) {
    if (error instanceof Abandon) return { kind: 'abandoned', reason: error.reason, ...(error.error === undefined ? {} : { error: error.error }) };
    throw error;
  }
}

/** Where the chunk starting at `start` ends (exclusive): at most `maxRecords`, and `maxBytes` of values unless one record alone is more. */
export function chunkEnd(messages: ReadonlyArray<{ value: Buffer | null }>, start: number, maxRecords: number, maxBytes = Number.POSITIVE_INFINITY): number {
  const last = Math.min(messages.length, start + maxRecords);
  let bytes = messages[start]?.value?.length ?? 0;
  let end = start + 1;
  while (end < last) {
    bytes += messages[end]!.value?.length ?? 0;
    if (bytes > maxBytes) break;
    end += 1;
  }
  return end;
}
