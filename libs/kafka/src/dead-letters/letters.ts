import { ValidationError } from '@herald/errors';
import { REDRIVE_HEADERS } from '../dead-letter.ts';

/** One link of a dead letter's error chain, as `errorChain` wrote it (outermost first). */
export interface ErrorLink {
  name: string;
  message: string;
  code?: string;
}

/** An earlier failure of a redriven record, kept in its `dlq.history`. */
export interface Failure {
  /** Consumer group (logical). */
  group: string;
  /** `<topic>:<partition>:<offset>` of the record that failed (logical). */
  source: string;
  failed_at: string;
  error: ErrorLink[];
}

/**
 * What a dead letter says it is: undecodable (not JSON, not an event
 * envelope, empty), schema-invalid (an envelope of an unknown event or
 * version, or data its schema refuses), or a permanent handler error (it
 * decoded; the consumer's work failed for a reason retrying cannot fix).
 */
export type DeadLetterKind = 'undecodable' | 'schema-invalid' | 'handler-error';

export interface DeadLetterEntry {
  /** `<dlq topic>:<partition>:<offset>`, logical: how the CLI names it. */
  ref: string;
  /** The dead-letter topic (logical). */
  topic: string;
  partition: number;
  offset: number;
  source: { topic: string; partition: number; offset: number; timestamp?: string };
  /** The consumer group that dead-lettered it, logical and as the broker names it. */
  group: string;
  groupId: string;
  failedAt: string;
  error: ErrorLink[];
  kind: DeadLetterKind;
  key: Buffer | null;
  value: Buffer | null;
  /** The original record's headers (provenance headers `dlq.*` left out). */
  headers: Record<string, string>;
  /** How many times it was redriven before this failure, and the failures before this one (oldest first). */
  redriveCount: number;
  history: Failure[];
  /** The dead letter this record was last redriven from, if it was. */
  redrivenFrom?: string;
}

export interface RawLetter {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

export function formatRef(topic: string, partition: number, offset: number): string {
  return `${topic}:${partition}:${offset}`;
}

/** `<dlq topic>:<partition>:<offset>` → its parts; a clear error naming the argument otherwise. */
export function parseRef(ref: string): { topic: string; partition: number; offset: number } {
  const match = /^(.+\.dlq\..+):(\d{1,9}):(\d{1,18})$/.exec(ref.trim());
  if (match === null) throw new ValidationError([`ref must be <dlq topic>:<partition>:<offset> (as \`herald dlq list --records\` prints it), got "${ref}"`]);
  return { topic: match[1]!, partition: Number(match[2]), offset: Number(match[3]) };
}

const withoutPrefix = (name: string, prefix: string) => (prefix !== '' && name.startsWith(prefix) ? name.slice(prefix.length) : name);

/** Reads a dead letter's provenance; undefined when the record is not one (no `dlq.source.topic`). */
export function parseDeadLetter(record: RawLetter, prefix: string): DeadLetterEntry | undefined {
  const { headers } = record;
  const sourceTopic = headers['dlq.source.topic'];
  const groupId = headers['dlq.group'];
  if (sourceTopic === undefined || groupId === undefined) return undefined;
  const error = parseJson<ErrorLink[]>(headers['dlq.error'], []);
  const original: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!name.startsWith('dlq.')) original[name] = value;
  const sourceTimestamp = headers['dlq.source.timestamp'];
  return {
    ref: formatRef(record.topic, record.partition, record.offset),
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    source: {
      topic: withoutPrefix(sourceTopic, prefix),
      partition: Number(headers['dlq.source.partition'] ?? -1),
      offset: Number(headers['dlq.source.offset'] ?? -1),
      ...(sourceTimestamp === undefined ? {} : { timestamp: new Date(Number(sourceTimestamp)).toISOString() }),
    },
    group: withoutPrefix(groupId, prefix),
    groupId,
    failedAt: headers['dlq.failed_at'] ?? '',
    error: Array.isArray(error) ? error : [],
    kind: kindOf(Array.isArray(error) ? error : []),
    key: record.key,
    value: record.value,
    headers: original,
    redriveCount: Number(headers[REDRIVE_HEADERS.count] ?? 0) || 0,
    history: parseJson<Failure[]>(headers[REDRIVE_HEADERS.history], []),
    ...(headers[REDRIVE_HEADERS.redrivenFrom] === undefined ? {} : { redrivenFrom: headers[REDRIVE_HEADERS.redrivenFrom] }),
  };
}

function parseJson<T>(text: string | undefined, fallback: T): T {
  if (text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function kindOf(chain: readonly ErrorLink[]): DeadLetterKind {
  const first = chain[0];
  if (first === undefined || (first.code !== 'EVENT_DECODE_FAILED' && first.name !== 'EventDecodeError')) return 'handler-error';
  return /^(invalid |unknown event )/.test(first.message) ? 'schema-invalid' : 'undecodable';
}

/** The error a dead letter is counted under: the code and first line of the outermost error, bounded. */
export function errorSummary(chain: readonly ErrorLink[]): string {
  const first = chain[0];
  if (first === undefined) return '(no error recorded)';
  const line = first.message.split('\n', 1)[0]!;
  const text = first.code === undefined ? `${first.name}: ${line}` : `${first.code}: ${line}`;
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** An `error` filter that selects the dead letters counted under this chain's summary: the outermost message's first line, bounded (a filter matches it anywhere in the chain). */
export function errorMatch(chain: readonly ErrorLink[]): string {
  const line = chain[0]?.message.split('\n', 1)[0] ?? '';
  return line.slice(0, 200);
}

export interface DeadLetterFilter {
  /** A dead-letter topic or a source topic (logical). */
  topic?: string;
  /** A consumer group (logical). */
  group?: string;
  /** A substring of any error in the chain (message or code), case-insensitive. */
  error?: string;
  /** Dead-lettered at or after. */
  since?: Date;
}

export function matches(entry: DeadLetterEntry, filter: DeadLetterFilter): boolean {
  if (filter.topic !== undefined && entry.topic !== filter.topic && entry.source.topic !== filter.topic) return false;
  if (filter.group !== undefined && entry.group !== filter.group) return false;
  if (filter.since !== undefined && !(Date.parse(entry.failedAt) >= filter.since.getTime())) return false;
  if (filter.error !== undefined) {
    const needle = filter.error.toLowerCase();
    if (!entry.error.some((link) => `${link.code ?? ''} ${link.name}: ${link.message}`.toLowerCase().includes(needle))) return false;
  }
  return true;
}

export interface DeadLetterCount {
  topic: string;
  group: string;
  kind: DeadLetterKind;
  error: string;
  /** An `error` filter for this row's dead letters (errorMatch). */
  match: string;
  count: number;
  oldest: string;
  newest: string;
}

/** Counts by dead-letter topic, consumer group and error, with the oldest and newest failure; largest first. */
export function countDeadLetters(entries: readonly DeadLetterEntry[]): DeadLetterCount[] {
  const rows = new Map<string, DeadLetterCount>();
  for (const entry of entries) {
    const error = errorSummary(entry.error);
    const key = JSON.stringify([entry.topic, entry.group, error]);
    const row = rows.get(key);
    if (row === undefined) {
      rows.set(key, { topic: entry.topic, group: entry.group, kind: entry.kind, error, match: errorMatch(entry.error), count: 1, oldest: entry.failedAt, newest: entry.failedAt });
      continue;
    }
    row.count += 1;
    if (entry.failedAt < row.oldest) row.oldest = entry.failedAt;
    if (entry.failedAt > row.newest) row.newest = entry.failedAt;
  }
  return [...rows.values()].sort((a, b) => b.count - a.count || a.topic.localeCompare(b.topic) || a.error.localeCompare(b.error));
}

/** Text from a record (a key, a header, an error message) made safe for a terminal: control characters escaped. */
export function safeText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
