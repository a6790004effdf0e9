import { TOPICS } from '@herald/events';
import { partitionForKey, readLogRanges, withLogAdmin, type ConsumedEvent, type HeraldKafka, type LogRange, type LogRecord } from '@herald/kafka';
import type { ExplainLimits } from './types.ts';

/** Records stamped this long before a fact's own time are read too (producers' clocks differ). */
export const CLOCK_MARGIN_MS = 60_000;

/** The creation time a UUIDv7 carries (ms), or undefined for any other id. */
export function uuidV7Time(id: string): number | undefined {
  const hex = id.replaceAll('-', '');
  if (hex.length !== 32 || hex[12] !== '7') return undefined;
  const ms = Number.parseInt(hex.slice(0, 12), 16);
  return Number.isFinite(ms) ? ms : undefined;
}

/** One part of a read: a partition of a topic from a time (or its start) to its end now, and which keys to keep. */
export interface FactQuery {
  topic: string;
  key: string;
  /** Read from the first record stamped at or after this (minus CLOCK_MARGIN_MS); undefined: from the partition's start. */
  sinceMs?: number | undefined;
  /** Which records to keep: default, the record key equals `key`. */
  keep?: (record: LogRecord) => boolean;
  /** The partition is the one this key hashes to (default `key`): a fan-out task lives on its device's partition. */
  partitionKey?: string;
}

export interface FactRead {
  /** Kept records per query, in log order, decoded (undecodable ones dropped). */
  records: ConsumedEvent[][];
  /** How many records the read spanned. */
  scanned: number;
  /** Partitions of herald.device-events (the partition count device ids hash over). */
  deviceEventsPartitions: number;
}

const keyOf = (record: LogRecord) => record.key?.toString() ?? '';

/** The device-events partition a device's events are on. */
export function devicePartition(deviceId: string, partitions: number): number {
  return partitionForKey(deviceId, partitions);
}

/**
 * Reads what explain needs with the one log reader, in one pass over every
 * partition concerned (one throwaway group): each query's partition from its
 * time (offsets by timestamp) to its end, bounded by `limits`.
 */
export async function readFacts(kafka: HeraldKafka, queries: readonly FactQuery[], limits: Pick<ExplainLimits, 'maxRecords' | 'timeoutMs'>): Promise<FactRead> {
  const { ranges, deviceEventsPartitions } = await withLogAdmin(kafka, async (admin) => {
    const ends = new Map<string, Map<number, { low: number; high: number }>>();
    for (const topic of new Set([TOPICS.deviceEvents, ...queries.map((query) => query.topic)])) {
      ends.set(topic, new Map((await admin.ends(kafka.topic(topic))).map((end) => [end.partition, end])));
    }
    const partitions = ends.get(TOPICS.deviceEvents)!.size;
    const out = new Map<string, LogRange>();
    for (const query of queries) {
      const topicEnds = ends.get(query.topic)!;
      const partition = partitionForKey(query.partitionKey ?? query.key, topicEnds.size);
      const end = topicEnds.get(partition);
      if (end === undefined) continue;
      const from = query.sinceMs === undefined ? end.low : Math.max(end.low, (await admin.offsetsAt(kafka.topic(query.topic), query.sinceMs - CLOCK_MARGIN_MS)).get(partition) ?? end.low);
      const id = `${query.topic}:${partition}`;
      const known = out.get(id);
      out.set(id, { topic: query.topic, partition, from: Math.min(from, known?.from ?? from), to: end.high });
    }
    return { ranges: [...out.values()], deviceEventsPartitions: partitions };
  });
  const matches = (query: FactQuery, record: LogRecord) =>
    record.topic === query.topic && (query.keep?.(record) ?? keyOf(record) === query.key);
  const kept = await readLogRanges(kafka, ranges, {
    keep: (record) => record.event !== undefined && queries.some((query) => matches(query, record)),
    maxRecords: limits.maxRecords,
    timeoutMs: limits.timeoutMs,
    purpose: 'explain',
  });
  const records = queries.map((query) =>
    kept.filter((record) => matches(query, record)).map((record): ConsumedEvent => ({ event: record.event!, topic: record.topic, partition: record.partition, offset: record.offset })),
  );
  return { records, scanned: ranges.reduce((sum, range) => sum + range.to - range.from, 0), deviceEventsPartitions };
}
