import { NotFoundError } from '@herald/errors';
import type { HeraldKafka } from '../create-kafka.ts';
import { withLogAdmin } from '../log-admin.ts';
import { readLogToEnd } from '../read-log-to-end.ts';
import { parseDeadLetter, parseRef, type DeadLetterEntry } from './letters.ts';
import type { RedriveLogEntry } from './redrive-copy.ts';

/**
 * Which dead letters were redriven: one record per redriven dead letter,
 * keyed by its ref, written in the same transaction as the copy. Compacted:
 * it keeps one record per key for as long as the dead letters exist.
 */
export const REDRIVE_LOG_TOPIC = 'herald.dlq-redrives';

const isDeadLetterTopic = (logical: string) => logical.includes('.dlq.');

/** Every dead-letter topic of this installation (logical names), sorted. */
export async function deadLetterTopics(kafka: HeraldKafka): Promise<string[]> {
  const all = await withLogAdmin(kafka, (admin) => admin.topics());
  return all
    .filter((name) => name.startsWith(kafka.prefix))
    .map((name) => name.slice(kafka.prefix.length))
    .filter(isDeadLetterTopic)
    .sort();
}

/** Every dead letter in these topics (default: all dead-letter topics), in log order per topic. */
export async function readDeadLetters(kafka: HeraldKafka, topics?: readonly string[]): Promise<DeadLetterEntry[]> {
  const names = topics ?? (await deadLetterTopics(kafka));
  const records = await readLogToEnd(kafka, names);
  return records.flatMap((record) => parseDeadLetter(record, kafka.prefix) ?? []);
}

/** The dead letter a ref names; NotFoundError naming the ref when there is none. */
export async function readDeadLetter(kafka: HeraldKafka, ref: string): Promise<DeadLetterEntry> {
  const { topic, partition, offset } = parseRef(ref);
  if (!(await deadLetterTopics(kafka)).includes(topic)) throw new NotFoundError(`no dead-letter topic ${topic}`);
  const found = (await readDeadLetters(kafka, [topic])).find((entry) => entry.partition === partition && entry.offset === offset);
  if (found === undefined) throw new NotFoundError(`no dead letter at ${ref} (removed by retention, or never written)`);
  return found;
}

/** The redrive log as it stands: dead letter ref → where and when it was redriven. */
export async function readRedriveLog(kafka: HeraldKafka): Promise<Map<string, RedriveLogEntry>> {
  const log = new Map<string, RedriveLogEntry>();
  for (const record of await readLogToEnd(kafka, [REDRIVE_LOG_TOPIC])) {
    const ref = record.key?.toString();
    if (ref === undefined) continue;
    if (record.value === null) log.delete(ref);
    else log.set(ref, JSON.parse(record.value.toString()) as RedriveLogEntry);
  }
  return log;
}

/** Records stored per dead-letter topic (end - start of each partition): what is waiting for an operator. */
export async function deadLetterDepth(kafka: HeraldKafka, topics: readonly string[]): Promise<Map<string, number>> {
  return withLogAdmin(kafka, async (admin) => {
    const existing = new Set(await admin.topics());
    const depth = new Map<string, number>();
    for (const topic of topics) {
      if (!existing.has(kafka.topic(topic))) continue;
      const ends = await admin.ends(kafka.topic(topic));
      depth.set(topic, ends.reduce((sum, end) => sum + Math.max(0, end.high - end.low), 0));
    }
    return depth;
  });
}
