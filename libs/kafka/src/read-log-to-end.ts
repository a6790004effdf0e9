import type { HeraldKafka } from './create-kafka.ts';
import { withLogAdmin } from './log-admin.ts';
import { openLogReader, type LogRecord } from './log-reader.ts';
import type { PartitionEnd } from './offsets.ts';

/**
 * Reads topics (logical names) from their first stored record up to where
 * they ended when called, with the one log reader, and resolves with every
 * record in log order per partition. For tools over small topics (dead
 * letters, the redrive log), not for event topics. Transaction markers count
 * as read (the reader's progress passes them), so a topic written in
 * transactions ends too.
 */
export async function readLogToEnd(kafka: HeraldKafka, topics: readonly string[], timeoutMs = 60_000): Promise<LogRecord[]> {
  const existing = new Set(await withLogAdmin(kafka, (admin) => admin.topics()));
  const present = topics.filter((topic) => existing.has(kafka.topic(topic)));
  if (present.length === 0) return [];
  const ends = new Map<string, PartitionEnd[]>();
  await withLogAdmin(kafka, async (admin) => {
    for (const topic of present) ends.set(topic, await admin.ends(kafka.topic(topic)));
  });
  const remaining = new Map<string, number>();
  for (const [topic, partitions] of ends) for (const end of partitions) if (end.high > end.low) remaining.set(`${topic}:${end.partition}`, end.high);
  if (remaining.size === 0) return [];

  const records: LogRecord[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const moved = (topic: string, partition: number, next: number) => {
    const key = `${topic}:${partition}`;
    const high = remaining.get(key);
    if (high !== undefined && next >= high) remaining.delete(key);
    if (remaining.size === 0) done();
  };
  const reader = await openLogReader({
    kafka,
    topics: present,
    from: {},
    onRecord: async (record) => {
      const high = remaining.get(`${record.topic}:${record.partition}`);
      if (high !== undefined && record.offset < high) records.push(record);
      moved(record.topic, record.partition, record.offset + 1);
    },
    onProgress: moved,
    purpose: 'to-end',
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      finished,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`reading ${present.join(', ')} to their ends took over ${timeoutMs} ms (${[...remaining.keys()].join(', ')} not reached)`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await reader.close();
  }
  return records;
}
