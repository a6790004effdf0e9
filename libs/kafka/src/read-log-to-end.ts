import type { HeraldKafka } from './create-kafka.ts';
import { withLogAdmin } from './log-admin.ts';
import type { LogRecord } from './log-reader.ts';
import { readLogRanges, type LogRange } from './read-log-range.ts';

/**
 * Reads topics (logical names) from their first stored record up to where
 * they ended when called, with the one log reader, and resolves with every
 * record in log order per partition. For tools over small topics (dead
 * letters, the redrive log), not for event topics. Transaction markers count
 * as read (the reader's progress passes them), so a topic written in
 * transactions ends too.
 */
export async function readLogToEnd(kafka: HeraldKafka, topics: readonly string[], timeoutMs = 60_000): Promise<LogRecord[]> {
  const ranges = await withLogAdmin(kafka, async (admin) => {
    const existing = new Set(await admin.topics());
    const out: LogRange[] = [];
    for (const topic of topics.filter((name) => existing.has(kafka.topic(name)))) {
      for (const end of await admin.ends(kafka.topic(topic))) out.push({ topic, partition: end.partition, from: end.low, to: end.high });
    }
    return out;
  });
  return readLogRanges(kafka, ranges, { keep: () => true, maxRecords: Number.POSITIVE_INFINITY, timeoutMs, purpose: 'to-end' });
}
