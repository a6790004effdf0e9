import { REDRIVE_HEADERS } from '../dead-letter.ts';
import { formatRef, matches, type DeadLetterEntry, type DeadLetterFilter, type Failure } from './letters.ts';

/** The record a redrive writes back to the source topic, for the one group that dead-lettered it. */
export interface RedriveCopy {
  /** Source topic (logical). */
  topic: string;
  /** The original's partition: the copy stays in its key's order. */
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/**
 * The copy of a dead letter: the original key, value and headers, plus
 * redrive provenance. If it fails again, the consumer's dead letter keeps
 * these headers, so its history (every earlier failure) goes with it.
 */
export function redriveCopy(entry: DeadLetterEntry, now: Date): RedriveCopy {
  const failure: Failure = {
    group: entry.group,
    source: formatRef(entry.source.topic, entry.source.partition, entry.source.offset),
    failed_at: entry.failedAt,
    error: entry.error,
  };
  return {
    topic: entry.source.topic,
    partition: entry.source.partition,
    key: entry.key,
    value: entry.value,
    headers: {
      ...entry.headers,
      [REDRIVE_HEADERS.id]: entry.ref,
      [REDRIVE_HEADERS.group]: entry.groupId,
      [REDRIVE_HEADERS.redrivenFrom]: entry.ref,
      [REDRIVE_HEADERS.redrivenAt]: now.toISOString(),
      [REDRIVE_HEADERS.count]: String(entry.redriveCount + 1),
      [REDRIVE_HEADERS.history]: JSON.stringify([...entry.history, failure]),
    },
  };
}

/** What the redrive log says of one dead letter (value of its record, keyed by the dead letter's ref). */
export interface RedriveLogEntry {
  redriven_at: string;
  /** Where the copy went (`<topic>:<partition>`, logical). */
  to: string;
}

export interface RedriveSelection {
  selected: DeadLetterEntry[];
  /** Matching dead letters the redrive log already has: never redriven again. */
  alreadyRedriven: Array<{ entry: DeadLetterEntry; log: RedriveLogEntry }>;
}

/** The dead letters a redrive with `filter` writes back: matching ones not in the redrive log, in log order. */
export function selectForRedrive(entries: readonly DeadLetterEntry[], filter: DeadLetterFilter, log: ReadonlyMap<string, RedriveLogEntry>): RedriveSelection {
  const selection: RedriveSelection = { selected: [], alreadyRedriven: [] };
  for (const entry of entries) {
    if (!matches(entry, filter)) continue;
    const done = log.get(entry.ref);
    if (done === undefined) selection.selected.push(entry);
    else selection.alreadyRedriven.push({ entry, log: done });
  }
  return selection;
}
