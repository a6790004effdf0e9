import { InfrastructureError, UnprocessableError } from '@herald/errors';
import type { HeraldKafka } from './create-kafka.ts';
import { openLogReader, type LogRecord } from './log-reader.ts';

/** Records `[from, to)` of one partition of a logical topic. */
export interface LogRange {
  topic: string;
  partition: number;
  from: number;
  to: number;
}

export interface LogRangeOptions {
  /** Which records to keep (e.g. by key); every record in the ranges is read and counted either way. */
  keep(record: LogRecord): boolean;
  /** Refused before reading when the ranges hold more records than this (the cost of a read is its span, not what it keeps). */
  maxRecords: number;
  /** Gives up after this long. */
  timeoutMs: number;
  /** Part of the throwaway group's name (see openLogReader). */
  purpose: string;
}

/** How many records the ranges span (what reading them costs). */
export function rangeSpan(ranges: readonly LogRange[]): number {
  return ranges.reduce((sum, range) => sum + Math.max(0, range.to - range.from), 0);
}

/**
 * Reads chosen partitions between chosen offsets with the one log reader
 * (only those partitions fetched, one throwaway group for them all) and
 * resolves with the records `keep` accepts, in log order per partition. The
 * span is bounded before anything is read: more than `maxRecords` is refused
 * with a 422 naming the span, so a caller cannot make the server scan a
 * large log; slower than `timeoutMs` ends with a 503.
 */
export async function readLogRanges(kafka: HeraldKafka, ranges: readonly LogRange[], options: LogRangeOptions): Promise<LogRecord[]> {
  const wanted = ranges.filter((range) => range.to > range.from);
  const span = rangeSpan(wanted);
  if (span > options.maxRecords) {
    const where = wanted.map((range) => `${range.topic}[${range.partition}] ${range.from}..${range.to}`).join(', ');
    throw new UnprocessableError([`reading ${span} log records (${where}) is over the limit of ${options.maxRecords}`]);
  }
  if (wanted.length === 0) return [];
  const remaining = new Map(wanted.map((range) => [`${range.topic}:${range.partition}`, range]));
  const topics = [...new Set(wanted.map((range) => range.topic))];
  const partitions = Object.fromEntries(topics.map((topic) => [topic, wanted.filter((range) => range.topic === topic).map((range) => range.partition)]));
  const from = Object.fromEntries(topics.map((topic) => [topic, Object.fromEntries(wanted.filter((range) => range.topic === topic).map((range) => [range.partition, range.from]))]));
  const records: LogRecord[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const moved = (topic: string, partition: number, next: number) => {
    const key = `${topic}:${partition}`;
    const range = remaining.get(key);
    if (range !== undefined && next >= range.to) remaining.delete(key);
    if (remaining.size === 0) done();
  };
  const reader = await openLogReader({
    kafka,
    topics,
    from,
    partitions,
    purpose: options.purpose,
    onRecord: async (record) => {
      const range = remaining.get(`${record.topic}:${record.partition}`);
      if (range !== undefined && record.offset < range.to && options.keep(record)) records.push(record);
      moved(record.topic, record.partition, record.offset + 1);
    },
    onProgress: moved,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      finished,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new InfrastructureError('KAFKA_UNAVAILABLE', `reading the log took over ${options.timeoutMs} ms (${[...remaining.keys()].join(', ')} not read to the end)`)),
          options.timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await reader.close();
  }
  return records;
}
