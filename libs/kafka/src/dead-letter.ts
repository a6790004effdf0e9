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
