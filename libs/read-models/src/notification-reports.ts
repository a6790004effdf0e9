import { TOPICS, type ConsumedEvent, type Provider } from '@herald/events';
import type { ProjectedDocument } from './documents.ts';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';
import { outcomeCountDeltas, ZERO_OUTCOMES, type OutcomeCounts } from './outcome-counts.ts';
import { NOTIFICATIONS_FETCH, SETTLED_SUFFIX } from './notifications.ts';
import { localeCountsAfterOpen, localeCountsAfterReport, type LocaleCounts } from './locale-counts.ts';

/** Devices not delivered, grouped by the provider's (or Herald's) reason. */
export interface FailureGroup {
  provider: Provider;
  outcome: 'failed' | 'invalid';
  /** The provider's reason code (or Herald's: AttemptsExhausted, NoApnsCredentials, …); '' when none was given. */
  reason: string;
  count: number;
}

export type BucketSpan = 'minute' | 'hour' | 'day';

/** Outcomes reported and opens recorded within one span of time. */
export interface TimelineBucket extends OutcomeCounts {
  /** Start of the bucket (ISO time). */
  at: string;
  span: BucketSpan;
}

/**
 * What a notification's report shows besides its counts: failures by
 * reason, and outcomes and opens over time. All of a notification's events
 * share its Kafka key, so each document has one writer.
 */
export interface NotificationReportDocument extends ProjectedDocument {
  failures: FailureGroup[];
  timeline: TimelineBucket[];
  /** The first outcome's time: buckets are minutes for the first hours after it, then hours, then days. */
  started_at?: string;
  /** Batches already counted: a batch reported twice counts once (as in the notifications read model). */
  reported_batches: string[];
  /** A template or localised send: its funnel by content locale (locale-counts.ts); absent on reports projected before the field. */
  by_locale?: Record<string, LocaleCounts>;
  /** A test send (its NotificationRequested `test_send`): its outcomes count under the project's test keys, out of the Overview by default. */
  test_send?: true;
  updated_at: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Minute buckets while a send is young, hour buckets for a week: a campaign's progress and its first opens in detail, later opens coarser. */
export const MINUTE_BUCKETS_FOR_MS = 2 * HOUR_MS;
export const HOUR_BUCKETS_FOR_MS = 7 * DAY_MS;

/** The bucket a time falls in, given the first outcome's time (pure; UTC boundaries). */
export function bucketOf(time: string, startedAt: string): { at: string; span: BucketSpan } {
  const t = Date.parse(time);
  const age = t - Date.parse(startedAt);
  const span: BucketSpan = age < MINUTE_BUCKETS_FOR_MS ? 'minute' : age < HOUR_BUCKETS_FOR_MS ? 'hour' : 'day';
  const size = span === 'minute' ? MINUTE_MS : span === 'hour' ? HOUR_MS : DAY_MS;
  return { at: new Date(Math.floor(t / size) * size).toISOString(), span };
}

function addToBucket(timeline: readonly TimelineBucket[], bucket: { at: string; span: BucketSpan }, add: Partial<OutcomeCounts>): TimelineBucket[] {
  const matches = (item: TimelineBucket) => item.at === bucket.at && item.span === bucket.span;
  const current = timeline.find(matches) ?? { ...bucket, ...ZERO_OUTCOMES };
  const next = { ...current };
  for (const [key, value] of Object.entries(add) as Array<[keyof OutcomeCounts, number]>) next[key] += value;
  return [...timeline.filter((item) => !matches(item)), next].sort((a, b) => a.at.localeCompare(b.at) || a.span.localeCompare(b.span));
}

function addFailures(failures: readonly FailureGroup[], provider: FailureGroup['provider'], results: ReadonlyArray<{ outcome: string; reason?: string | undefined }>): FailureGroup[] {
  const next = failures.map((group) => ({ ...group }));
  for (const result of results) {
    if (result.outcome !== 'failed' && result.outcome !== 'invalid') continue;
    const reason = result.reason ?? '';
    const group = next.find((item) => item.provider === provider && item.outcome === result.outcome && item.reason === reason);
    if (group === undefined) next.push({ provider, outcome: result.outcome, reason, count: 1 });
    else group.count += 1;
  }
  return next.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

export function evolveNotificationReport(state: NotificationReportDocument | undefined, record: ConsumedEvent, id: string): NotificationReportDocument | undefined {
  const { event } = record;
  if (event.type !== 'DeliveryReported' && event.type !== 'NotificationOpened' && event.type !== 'NotificationRequested') return state;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  const position = positionOf(record);
  const at = event.occurred_at;
  if (event.type === 'NotificationRequested') {
    // Only a test send is worth a document this early: it marks where its outcomes count (before any, as its events share a key).
    if (event.data.test_send !== true || state !== undefined) return state;
    return { _id: id, project_id: event.project_id, failures: [], timeline: [], reported_batches: [], test_send: true, updated_at: at, position };
  }
  const base: NotificationReportDocument = state ?? { _id: id, project_id: event.project_id, failures: [], timeline: [], reported_batches: [], updated_at: at, position };
  const startedAt = base.started_at ?? at;
  const bucket = bucketOf(at, startedAt);
  if (event.type === 'NotificationOpened') {
    const byLocale = localeCountsAfterOpen(base.by_locale, event.data);
    return { ...base, started_at: startedAt, timeline: addToBucket(base.timeline, bucket, { opened: 1 }), ...(byLocale === undefined ? {} : { by_locale: byLocale }), updated_at: at, position };
  }
  // A deferred batch's release is reported again under its id (`settles_deferral`): kept under its own key, as the
  // notification's counts keep it, so the released devices count once even when the batch's first report counted others.
  const key = event.data.settles_deferral === true ? `${event.data.batch_id}${SETTLED_SUFFIX}` : event.data.batch_id;
  if (base.reported_batches.includes(key)) return { ...base, position };
  const counts: Partial<OutcomeCounts> = {};
  // The holdout is never sent: not an outcome over time (its count is the notification's).
  for (const result of event.data.results) if (result.outcome !== 'deferred' && result.outcome !== 'held_out') counts[result.outcome] = (counts[result.outcome] ?? 0) + 1;
  const byLocale = localeCountsAfterReport(base.by_locale, event.data.results);
  return {
    ...base,
    started_at: startedAt,
    failures: addFailures(base.failures, event.data.provider, event.data.results),
    timeline: addToBucket(base.timeline, bucket, counts),
    ...(byLocale === undefined ? {} : { by_locale: byLocale }),
    reported_batches: [...base.reported_batches, key],
    updated_at: at,
    position,
  };
}

export const notificationReportsProjection: Projection<NotificationReportDocument> = {
  // Read by `_id` only.
  indexes: [],
  // Shown beside the notification's counts: fetched as they are, so a one-device send's reports fold as its document does.
  fetch: NOTIFICATIONS_FETCH,
  name: 'notification_reports',
  // Dispatches are passed over undecoded; requests are read for `test_send` (only a test send's names a document).
  types: ['DeliveryReported', 'NotificationOpened', 'NotificationRequested'],
  topics: [TOPICS.notificationEvents],
  documentIds: ({ event }) =>
    event.type === 'DeliveryReported' || event.type === 'NotificationOpened' || (event.type === 'NotificationRequested' && event.data.test_send === true) ? [event.data.notification_id] : [],
  evolve: evolveNotificationReport,
  // The project's outcomes and opens per hour (the console's Overview), each batch counted once as the report counts it.
  counts: outcomeCountDeltas,
};
