import { IDLE_FETCH_WAIT_MS } from './offsets.ts';

/** kafkajs' default for the bytes one partition may add to a fetch's answer. */
export const DEFAULT_PARTITION_FETCH_BYTES = 1_048_576;

export interface BulkFetch {
  minBytes: number;
  maxWaitMs: number;
}

/**
 * A consumer's fetch settings (pure). For a bulk fetch, one partition may
 * answer with `minBytes` (and no less than kafkajs' default): the broker
 * counts a partition's records toward `minBytes` only up to that
 * partition's limit, so with `minBytes` above it a fetch whose records all
 * sit on one partition (a campaign's reports share its key) waits out
 * `maxWaitMs` every time however much is there. Measured at 1M devices with
 * 4 MB asked and 1 MB per partition: the notifications read model took one
 * fetch of about 20 reports a second and fell minutes behind. No more than
 * `minBytes` either: a fetch's records are decoded at once, and the
 * projector's peak memory is near its 512 MB target.
 */
export function fetchSettings(fetch: BulkFetch | undefined): { maxWaitTimeInMs: number; minBytes?: number; maxBytesPerPartition?: number } {
  if (fetch === undefined) return { maxWaitTimeInMs: IDLE_FETCH_WAIT_MS };
  return { maxWaitTimeInMs: fetch.maxWaitMs, minBytes: fetch.minBytes, maxBytesPerPartition: Math.max(DEFAULT_PARTITION_FETCH_BYTES, fetch.minBytes) };
}
