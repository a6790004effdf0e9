import { compileAudience, type Audience, type ZoneFilter } from '@herald/audience';
import type { IndexReader } from './index-reader.ts';
import { candidatePlan, planSize, planSources } from './candidates.ts';
import { lookupKey } from './index-rows.ts';

export type { IndexReader } from './index-reader.ts';

/** Candidates whose rows are read together (one query when they lie close together). */
const ROWS_PER_READ = 256;

/** A device a step hands to a batch. */
export interface AudienceRow {
  ordinal: number;
  device_id: string;
  token: string;
  platform: 'ios' | 'android' | 'web' | 'huawei';
  /** For frequency caps per user and quiet hours (campaign control). */
  external_id?: string | undefined;
  timezone?: string | undefined;
  /** What a template may read of the device (set when the page was asked `withValues`). */
  values?: RowValues | undefined;
}

/** A device's values a template reads: its metadata, locale and time zone (the templates library's DeviceValues). */
export interface RowValues {
  metadata: Record<string, string>;
  locale?: string | undefined;
  timezone?: string | undefined;
}

export interface Page {
  rows: AudienceRow[];
  /** The last ordinal examined (kept or not): the next page starts past it. */
  after: number | undefined;
  /** Nothing past `after` can match. */
  exhausted: boolean;
  /** Tokens whose device lives on another partition (a token refresh kept its id): they are handed on there. */
  forwards: Array<{ device_id: string; token: string }>;
}

export interface PageRequest {
  partition: number;
  projectId: string;
  audience: Audience;
  zones?: ZoneFilter | undefined;
  after: number | undefined;
  /** Devices to return at most. */
  limit: number;
  /** Candidates to examine at most (a slot's zone filter may turn most away): a step stays bounded. */
  scanLimit?: number;
  /** The device-events partition of a device id (to know which token holders live elsewhere). */
  partitionOf?: (deviceId: string) => number;
  /**
   * The send's recorded end of this partition: devices created at or after it
   * registered after the send was accepted and are not in its audience (so an
   * audience is the same whenever a step runs). Absent: every device.
   */
  registeredBefore?: number | undefined;
  /** Each row carries its device's values (a template or localised send): taken from the row read here, not read again. */
  withValues?: boolean | undefined;
}

/**
 * One page of a partition's audience, in ordinal order (a pure read of the
 * index): candidates come from the lookup keys of every target (a topic's
 * members, a metadata pair, a user, a token, named ids; an expression's
 * narrowest keys, candidates.ts), merged without repeats, and each is kept
 * only if `matchesAudience` (compiled once: `compileAudience`) says so — the same
 * predicate every reader of the devices read model uses. Ordinals are
 * given in log order, so once a device registered after the send comes up,
 * every later one did too: the page is then exhausted.
 */
export function readPage(index: IndexReader, request: PageRequest): Page {
  const { partition, projectId, audience } = request;
  const start = request.after ?? -1;
  const explicit = new Set<number>();
  const forwards: Page['forwards'] = [];
  const named = [...audience.device_ids, ...Object.keys(audience.held_tokens ?? {})];
  for (const id of named) {
    const ordinal = index.ordinalOf(partition, id);
    if (ordinal !== undefined && ordinal > start) explicit.add(ordinal);
  }
  for (const token of audience.tokens) {
    for (const ordinal of index.ordinals(lookupKey.token(partition, projectId, token), start)) explicit.add(ordinal);
    // A holder found through TokenAssigned: checked here if it lives here, handed on (first step only) otherwise.
    const holder = index.alias(partition, projectId, token);
    if (holder === undefined) continue;
    const home = request.partitionOf?.(holder) ?? partition;
    if (home !== partition) {
      if (request.after === undefined) forwards.push({ device_id: holder, token });
      continue;
    }
    const ordinal = index.ordinalOf(partition, holder);
    if (ordinal !== undefined && ordinal > start) explicit.add(ordinal);
  }
  const sources: Array<Iterator<number>> = [[...explicit].sort((a, b) => a - b)[Symbol.iterator]()];
  for (const topic of audience.topic_ids) sources.push(index.ordinals(lookupKey.topic(partition, topic), start));
  for (const externalId of audience.external_ids) sources.push(index.ordinals(lookupKey.user(partition, projectId, externalId), start));
  for (const filter of audience.metadata) {
    const first = Object.entries(filter)[0];
    sources.push(first === undefined ? index.allOrdinals(partition, start) : index.ordinals(lookupKey.metadata(partition, projectId, first[0], first[1]), start));
  }
  for (const condition of audience.expressions ?? []) sources.push(...planSources(index, partition, candidatePlan(index, partition, projectId, condition), start));
  // Compiled once per page: each candidate is tested by closures, not by walking the expressions.
  const matches = compileAudience(projectId, audience, request.zones);

  const rows: AudienceRow[] = [];
  const scanLimit = request.scanLimit ?? request.limit * 10;
  let scanned = 0;
  let after = request.after;
  const merged = mergeAscending(sources);
  try {
    for (;;) {
      const candidates: number[] = [];
      const room = Math.min(ROWS_PER_READ, scanLimit - scanned, request.limit - rows.length);
      for (let next = merged.next(); !next.done; next = merged.next()) {
        candidates.push(next.value);
        if (candidates.length >= room) break;
      }
      if (candidates.length === 0) return { rows, after, exhausted: true, forwards };
      const devices = index.rowsAt(partition, candidates);
      for (let at = 0; at < candidates.length; at += 1) {
        const ordinal = candidates[at]!;
        after = ordinal;
        scanned += 1;
        const device = devices[at];
        // Ordinals follow the log: from the first device created after the send on, none belongs to it.
        if (device !== undefined && request.registeredBefore !== undefined && device.since >= request.registeredBefore) return { rows, after, exhausted: true, forwards };
        if (device !== undefined && matches(device)) {
          const row: AudienceRow = { ordinal, device_id: device._id, token: device.token, platform: device.platform, external_id: device.external_id ?? undefined, timezone: device.timezone ?? undefined };
          if (request.withValues === true) row.values = { metadata: device.metadata ?? {}, locale: device.locale ?? undefined, timezone: device.timezone ?? undefined };
          rows.push(row);
        }
      }
      if (rows.length >= request.limit || scanned >= scanLimit) return { rows, after, exhausted: false, forwards };
    }
  } finally {
    // A page that stops early closes its sources (the index's iterators), which a caller could not reach.
    merged.return(undefined);
  }
}

/**
 * How many devices a partition's audience holds, from key counts alone (no
 * row is read): exact for one topic, one user or named devices and tokens;
 * an upper bound when targets overlap (a device in two topics counts twice),
 * for a metadata filter (the members of its first pair), for an expression
 * (the keys of its narrowest part, or every device), for every device
 * (inactive ones included), and for devices registered after the send. What
 * a campaign's progress and ETA are measured against until it is dispatched.
 */
export function estimateAudience(index: IndexReader, request: Pick<PageRequest, 'partition' | 'projectId' | 'audience'>): number {
  const { partition, projectId, audience } = request;
  let devices = audience.device_ids.length + Object.keys(audience.held_tokens ?? {}).length + audience.tokens.length;
  for (const topic of audience.topic_ids) devices += index.countUnder(lookupKey.topic(partition, topic));
  for (const externalId of audience.external_ids) devices += index.countUnder(lookupKey.user(partition, projectId, externalId));
  for (const filter of audience.metadata) {
    const first = Object.entries(filter)[0];
    devices += first === undefined ? index.deviceCount(partition) : index.countUnder(lookupKey.metadata(partition, projectId, first[0], first[1]));
  }
  for (const condition of audience.expressions ?? []) devices += planSize(index, partition, candidatePlan(index, partition, projectId, condition));
  return devices;
}

/** Merges ascending streams into one ascending stream without repeats. */
function* mergeAscending(sources: ReadonlyArray<Iterator<number>>): Generator<number> {
  const heads = sources.map((source) => ({ source, value: source.next() }));
  let last: number | undefined;
  try {
    for (;;) {
      let best: (typeof heads)[number] | undefined;
      for (const head of heads) if (!head.value.done && (best === undefined || head.value.value < (best.value.value as number))) best = head;
      if (best === undefined) return;
      const value = best.value.value as number;
      best.value = best.source.next();
      if (value !== last) yield value;
      last = value;
    }
  } finally {
    for (const head of heads) if (!head.value.done) head.source.return?.(undefined);
  }
}
