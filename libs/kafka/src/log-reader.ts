import { IDLE_FETCH_WAIT_MS } from './offsets.ts';
import { randomUUID } from 'node:crypto';
import { decodeEvent, type HeraldEvent } from '@herald/events';
import type { HeraldKafka } from './create-kafka.ts';
import { withLogAdmin } from './log-admin.ts';
import { REDRIVE_HEADERS } from './dead-letter.ts';

/** Next offset to read per partition, per topic (logical names). */
export type LogPosition = Record<string, Record<number, number>>;

export interface LogRecord {
  topic: string;
  partition: number;
  offset: number;
  /**
   * Undefined when the record is not a Herald event this code can decode (it
   * is skipped, not fatal), and for a redriven copy of a dead letter: a
   * delivery to one consumer group, not a new fact (its event is in the log
   * at the original's position).
   */
  event: HeraldEvent | undefined;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
  /** The record's timestamp (ms since the epoch, as text, as Kafka gives it). */
  timestamp: string;
}

export interface LogReaderOptions {
  kafka: HeraldKafka;
  /** Logical topic names. */
  topics: readonly string[];
  /** Where to start: a position (partitions it does not name start at their beginning), or the current end of every partition. */
  from: LogPosition | 'end';
  /** Called in log order per partition; the next record of that partition waits for it. */
  onRecord(record: LogRecord): Promise<void>;
  /** Who reads (e.g. `stream`, `delivery`): part of the throwaway group's name, so an operator sees whose it is. */
  purpose: string;
  /** Called after each fetched batch with the next offset of its partition, past transaction markers (which never reach onRecord). */
  onProgress?(topic: string, partition: number, next: number): void;
  /** Only these partitions (per logical topic; a topic not named: all): the others are paused at every join and never handed on. */
  partitions?: Readonly<Record<string, readonly number[]>>;
}

export interface LogReader {
  /** Where it started, every partition named (a position built from it resumes exactly). */
  start: LogPosition;
  /** Resolves once partitions are assigned and every start position is set. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads topics from a given position without a consumer group of its own
 * making: kafkajs has no `assign()`, so the reader joins a throwaway group
 * (one member: it gets every partition), seeks each partition to its start,
 * never commits, and deletes the group when closed. Records below a
 * partition's start are dropped, so whatever kafkajs fetched before the seek
 * took effect is never handed on: a reader started at a position sees each
 * record after it exactly once.
 */
export async function openLogReader(options: LogReaderOptions): Promise<LogReader> {
  const { kafka } = options;
  const physical = new Map(options.topics.map((topic) => [kafka.topic(topic), topic]));
  const start: LogPosition = {};
  await withLogAdmin(kafka, async (admin) => {
    for (const [topic, logical] of physical) {
      const ends = await admin.ends(topic);
      const given = options.from === 'end' ? undefined : options.from[logical];
      start[logical] = Object.fromEntries(ends.map((end) => [end.partition, options.from === 'end' ? end.high : Math.max(given?.[end.partition] ?? end.low, end.low)]));
    }
  });
  const groupId = kafka.group(`herald.log-reader.${options.purpose}.${randomUUID()}`);
  const consumer = kafka.client.consumer({ groupId, maxWaitTimeInMs: IDLE_FETCH_WAIT_MS, sessionTimeout: 10_000, heartbeatInterval: 1_000, allowAutoTopicCreation: false });
  /** Next offset to hand on, per physical topic and partition: where every (re)join seeks to. */
  const next = new Map<string, number>();
  for (const [topic, logical] of physical) for (const [partition, offset] of Object.entries(start[logical] ?? {})) next.set(`${topic}:${partition}`, offset);
  let joined: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (joined = resolve));
  // Seek at every join, not once after run(): a consumer that crashed (a coordinator still loading) rejoins and
  // would otherwise read from the end; at a join the consumer is ready to take a seek before it fetches.
  const chosen = (topic: string, partition: number) => {
    const only = options.partitions?.[physical.get(topic) ?? ''];
    return only === undefined || only.includes(partition);
  };
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    for (const [topic, partitions] of Object.entries(payload.memberAssignment)) {
      const skipped = partitions.filter((partition) => !chosen(topic, partition));
      if (skipped.length > 0) consumer.pause([{ topic, partitions: skipped }]);
      for (const partition of partitions) {
        if (!chosen(topic, partition)) continue;
        const offset = next.get(`${topic}:${partition}`);
        if (offset !== undefined) consumer.seek({ topic, partition, offset: String(offset) });
      }
    }
    joined();
  });
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    const logical = physical.get(payload.topic);
    if (logical !== undefined) options.onProgress?.(logical, payload.partition, Number(payload.lastOffset) + 1);
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [...physical.keys()], fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic, partition, message }) => {
      const logical = physical.get(topic)!;
      const offset = Number(message.offset);
      const key = `${topic}:${partition}`;
      if (offset < (next.get(key) ?? 0) || !chosen(topic, partition)) return;
      const headers = headerStrings(message.headers);
      let event: HeraldEvent | undefined;
      try {
        event = message.value === null || headers[REDRIVE_HEADERS.group] !== undefined ? undefined : decodeEvent(message.value);
      } catch {
        event = undefined;
      }
      await options.onRecord({ topic: logical, partition, offset, event, key: message.key, value: message.value, headers, timestamp: message.timestamp });
      next.set(key, offset + 1);
    },
  });
  return {
    start,
    ready,
    async close() {
      await consumer.disconnect().catch(() => undefined);
      await withLogAdmin(kafka, (admin) => admin.deleteGroups([groupId])).catch(() => undefined);
    },
  };
}

/** Headers as text (Kafka gives Buffers; a repeated header keeps its first value). */
export function headerStrings(headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = first.toString();
  }
  return out;
}
