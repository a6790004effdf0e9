import { errorChain } from '@herald/errors';

export interface SourceRecord {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
  timestamp?: string;
}

/**
 * Headers a redriven copy carries (dead-letters/redrive-copy.ts). The copy
 * goes back to the source topic but is meant for the one consumer group that
 * dead-lettered it: every other group passes it over (it already handled or
 * dead-lettered the original itself).
 */
export const REDRIVE_HEADERS = {
  /** The dead letter the copy was made from (`<dlq topic>:<partition>:<offset>`, logical): the redrive log's key. */
  id: 'dlq.redrive.id',
  /** The consumer group (broker name) the copy is for. */
  group: 'dlq.redrive.group',
  redrivenFrom: 'dlq.redriven_from',
  redrivenAt: 'dlq.redriven_at',
  count: 'dlq.redrive_count',
  /** JSON array of the earlier failures of this record, oldest first. */
  history: 'dlq.history',
} as const;

/** Whether a record is a redriven copy meant for another consumer group (broker name), which this group passes over. */
export function redrivenForAnotherGroup(headers: SourceRecord['headers'], groupId: string): boolean {
  const target = headers?.[REDRIVE_HEADERS.group];
  if (target === undefined) return false;
  const value = Array.isArray(target) ? target[0] : target;
  return value !== undefined && value.toString() !== groupId;
}

export interface DeadLetter {
  topic: string;
  message: { key: Buffer | null; value: Buffer | null; headers: Record<string, string | Buffer> };
}

/**
 * The dead-letter record for a record a consumer group could not handle: the
 * original key, value and headers untouched (so it can be replayed as is),
 * plus provenance headers saying where it came from and why it failed.
 */
export function deadLetterFor(source: SourceRecord, target: { topic: string; groupId: string }, error: unknown, now: Date): DeadLetter {
  const headers: Record<string, string | Buffer> = {};
  for (const [name, value] of Object.entries(source.headers ?? {})) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? (value[0] ?? '') : value;
  }
  headers['dlq.source.topic'] = source.topic;
  headers['dlq.source.partition'] = String(source.partition);
  headers['dlq.source.offset'] = source.offset;
  if (source.timestamp !== undefined) headers['dlq.source.timestamp'] = source.timestamp;
  headers['dlq.group'] = target.groupId;
  headers['dlq.failed_at'] = now.toISOString();
  headers['dlq.error'] = JSON.stringify(errorChain(error));
  return {
    topic: target.topic,
    message: { key: source.key, value: source.value, headers },
  };
}
