import { TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { alreadyApplied, positionOf, type Projection, type ProjectedDocument } from './projection.ts';

/** Devices per outcome in one hour, and the opens recorded in it. */
export interface OutcomeCounts {
  delivered: number;
  failed: number;
  invalid: number;
  cancelled: number;
  /** Not sent: the notification's `max_duration` ran out first (absent in hours counted before it existed). */
  expired?: number;
  /** Not sent: a frequency cap (`on_cap: drop`). Deferred devices are counted when released, in their real outcome. */
  capped?: number;
  opened: number;
}

export interface OutcomeHour extends OutcomeCounts {
  /** The UTC hour, `YYYY-MM-DDTHH` (the first 13 characters of an ISO time). */
  hour: string;
  /** Documents written before `recent_batches`: every batch counted in the hour (dropped at the document's next write). */
  batches?: string[];
}

/**
 * A project's delivery outcomes and opens per hour, as one
 * `herald.notification-events` partition saw them: the Overview's "last
 * 24 h". One document per (project, partition) gives each document one
 * writer (the consumer of that partition); FerretDB loses concurrent updates
 * to one document. Readers add up the project's documents, found by the
 * `_id` prefix `<project>|` (a range on `_id`). Only the newest
 * KEPT_HOURS hours are kept, so a document stays small.
 */
export interface ProjectOutcomesDocument extends ProjectedDocument {
  partition: number;
  hours: OutcomeHour[];
  /** The last RECENT_BATCHES batches counted, oldest first: a batch reported again while it is among them counts once. */
  recent_batches?: string[];
  updated_at: string;
}

/** Hours a document keeps, counted back from the newest hour it has seen. */
export const KEPT_HOURS = 48;

/**
 * Batch ids a document remembers to count a repeated report once. A report
 * is repeated when a sender's commit was lost (a crash, a rebalance, a
 * broker restart) and the batch's next owner reports it again: seconds to
 * a minute later. Remembering every batch of 48 hours grew without bound
 * (at 1,000 one-device sends/s a document passed MongoDB's 16 MB limit in
 * half an hour, and each write rewrote it); 5,000 ids (about 250 KB) cover
 * 30 s at that rate and hours of a campaign's 500-device batches. Only this
 * hourly overview depends on it: a notification's counts and receipts
 * de-duplicate by their own documents.
 */
export const RECENT_BATCHES = 5_000;

export const ZERO_OUTCOMES: OutcomeCounts = { delivered: 0, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 0 };

export function projectOutcomesId(projectId: string, partition: number): string {
  return `${projectId}|${partition}`;
}

/** The `_id` range holding every partition's document of a project ('}' follows '|'). */
export function projectOutcomesRange(projectId: string): { $gte: string; $lt: string } {
  return { $gte: `${projectId}|`, $lt: `${projectId}}` };
}

export const hourOf = (time: string): string => time.slice(0, 13);

const HOUR_MS = 3_600_000;
const hourStartMs = (hour: string): number => Date.parse(`${hour}:00:00.000Z`);

/** Drops hours older than KEPT_HOURS before the newest one; keeps them in time order. */
export function keepRecentHours(hours: readonly OutcomeHour[]): OutcomeHour[] {
  const newest = hours.reduce((max, item) => Math.max(max, hourStartMs(item.hour)), Number.NEGATIVE_INFINITY);
  return hours.filter((item) => hourStartMs(item.hour) > newest - KEPT_HOURS * HOUR_MS).sort((a, b) => a.hour.localeCompare(b.hour));
}

/** Adds to one hour's counts (creating the hour), returning new arrays. */
function addToHour(hours: readonly OutcomeHour[], hour: string, add: (item: OutcomeHour) => OutcomeHour): OutcomeHour[] {
  const current = hours.find((item) => item.hour === hour) ?? { hour, ...ZERO_OUTCOMES };
  return keepRecentHours([...hours.filter((item) => item.hour !== hour), add(current)]);
}

/** The batches a document remembers, oldest first; a document written before `recent_batches` gives its hours' lists (pure). */
function rememberedBatches(doc: ProjectOutcomesDocument): readonly string[] {
  return doc.recent_batches ?? doc.hours.flatMap((item) => item.batches ?? []).slice(-RECENT_BATCHES);
}

/** Hours without the lists older documents kept in them (pure). */
function withoutHourBatches(hours: readonly OutcomeHour[]): OutcomeHour[] {
  return hours.map(({ batches: _batches, ...counts }) => counts);
}

export function evolveProjectOutcomes(state: ProjectOutcomesDocument | undefined, record: ConsumedEvent, id: string): ProjectOutcomesDocument | undefined {
  const { event } = record;
  if (event.type !== 'DeliveryReported' && event.type !== 'NotificationOpened') return state;
  if (alreadyApplied(state, record)) return state;
  const position = positionOf(record);
  const base: ProjectOutcomesDocument = state ?? { _id: id, project_id: event.project_id, partition: record.partition, hours: [], updated_at: event.occurred_at, position };
  const hour = hourOf(event.occurred_at);
  if (event.type === 'NotificationOpened') {
    return { ...base, hours: addToHour(base.hours, hour, (item) => ({ ...item, opened: item.opened + 1 })), updated_at: event.occurred_at, position };
  }
  const batchId = event.data.batch_id;
  const remembered = rememberedBatches(base);
  if (remembered.includes(batchId)) return { ...base, position };
  // A deferred batch is counted once, when its release is reported (under the same batch id).
  if (event.data.results.every((result) => result.outcome === 'deferred')) return { ...base, position };
  const hours = addToHour(withoutHourBatches(base.hours), hour, (item) => {
    const next = { ...item };
    for (const result of event.data.results) if (result.outcome !== 'deferred') next[result.outcome] = (next[result.outcome] ?? 0) + 1;
    return next;
  });
  const recent = remembered.length < RECENT_BATCHES ? [...remembered, batchId] : [...remembered.slice(remembered.length - RECENT_BATCHES + 1), batchId];
  return { ...base, hours, recent_batches: recent, updated_at: event.occurred_at, position };
}

/** Sums the hours at or after `fromHour` over a project's documents, and the per-hour series (oldest first). */
export function outcomesSince(docs: ReadonlyArray<Pick<ProjectOutcomesDocument, 'hours'>>, fromHour: string): { totals: OutcomeCounts; hours: Array<OutcomeCounts & { hour: string }> } {
  const byHour = new Map<string, OutcomeCounts>();
  for (const item of docs.flatMap((doc) => doc.hours)) {
    if (item.hour < fromHour) continue;
    const sum = byHour.get(item.hour) ?? { ...ZERO_OUTCOMES };
    for (const key of Object.keys(ZERO_OUTCOMES) as Array<keyof OutcomeCounts>) sum[key] = (sum[key] ?? 0) + (item[key] ?? 0);
    byHour.set(item.hour, sum);
  }
  const totals = { ...ZERO_OUTCOMES };
  for (const sum of byHour.values()) for (const key of Object.keys(totals) as Array<keyof OutcomeCounts>) totals[key] = (totals[key] ?? 0) + (sum[key] ?? 0);
  const hours = [...byHour.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([hour, counts]) => ({ hour, ...counts }));
  return { totals, hours };
}

export const projectOutcomesProjection: Projection<ProjectOutcomesDocument> = {
  // Read by an `_id` range only, which every store indexes.
  indexes: [],
  name: 'project_outcomes',
  // A third of the topic's records (requests and dispatches are passed over undecoded).
  types: ['DeliveryReported', 'NotificationOpened'],
  topics: [TOPICS.notificationEvents],
  // One document per project and partition, created by the project's first report there.
  readFirst: true,
  // Hourly totals for the console's overview: a second late is nothing, and a second of reports is one replace per document.
  fetch: { minBytes: 1_048_576, maxWaitMs: 1_000 },
  documentIds: (record) =>
    record.event.type === 'DeliveryReported' || record.event.type === 'NotificationOpened' ? [projectOutcomesId(record.event.project_id, record.partition)] : [],
  evolve: evolveProjectOutcomes,
};
