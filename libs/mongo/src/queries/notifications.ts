import { NOTIFICATIONS_COUNT_KEY, TEST_NOTIFICATIONS_COUNT_KEY, type CounterDocument, type NotificationDocument, type NotificationStatus } from '@herald/read-models';
import type { ReadModelRegistry } from '../read-models.ts';
import { readCounts } from './counters.ts';
import { scope, type PageWindow } from './devices.ts';

/** The list's search (GET /notifications with `q`, `created_from`, `created_to`, `outcome`). */
export interface NotificationSearch {
  status?: NotificationStatus | undefined;
  /** Words in the title, matched as typed, case-insensitive. */
  q?: string | undefined;
  /** Created at or after / before (ISO 8601, UTC, as stored). */
  created_from?: string | undefined;
  created_to?: string | undefined;
  /** At least one device had this outcome. */
  outcome?: 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'expired' | 'capped' | 'opened' | undefined;
  /** Test sends too (left out by default). */
  include_tests?: boolean | undefined;
}

/** Leaves test sends out unless asked for. */
const testsFilter = (includeTests: boolean | undefined) => (includeTests === true ? {} : { test_send: { $ne: true as const } });

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The store filter of a search. The range and the sort ride the
 * `by_project_newest` / `by_project_status_newest` indexes; the title and
 * the outcome are checked on the rows of that range (a literal, escaped:
 * no pattern a caller writes runs in the store).
 */
export function searchFilter(projectId: string, search: NotificationSearch): Record<string, unknown> {
  const created = { ...(search.created_from === undefined ? {} : { $gte: search.created_from }), ...(search.created_to === undefined ? {} : { $lt: search.created_to }) };
  return {
    project_id: projectId,
    ...(search.status === undefined ? {} : { status: search.status }),
    ...(Object.keys(created).length === 0 ? {} : { created_at: created }),
    ...(search.q === undefined ? {} : { title: { $regex: escapeRegex(search.q), $options: 'i' } }),
    ...(search.outcome === undefined ? {} : { [`counts.${search.outcome}`]: { $gt: 0 } }),
    ...testsFilter(search.include_tests),
  };
}

/** The questions the API asks of the `notifications` read model (its indexes: libs/read-models notification-document.ts). */
export class NotificationQueries {
  readonly #readModels: ReadModelRegistry;

  constructor(readModels: ReadModelRegistry) {
    this.#readModels = readModels;
  }

  #notifications() {
    return this.#readModels.collection<NotificationDocument>('notifications');
  }

  /** The project's notification with this id, or null. */
  async notification(projectId: string, id: string): Promise<NotificationDocument | null> {
    return (await this.#notifications()).findOne({ _id: id, project_id: projectId });
  }

  /** What a report shows of a notification (an A/B send's counts by variant, its request options and decision), without its long batch lists; null when absent. */
  async reportFacts(projectId: string, id: string): Promise<Pick<NotificationDocument, '_id' | 'by_variant' | 'options' | 'decision' | 'decided_at'> | null> {
    return (await this.#notifications()).findOne({ _id: id, project_id: projectId }, { projection: { by_variant: 1, options: 1, decision: 1, decided_at: 1 } });
  }

  /** The id of the project's notification that replaced this one (an edit of a scheduled send: its `replaces`), or null. */
  async replacementOf(projectId: string, id: string): Promise<string | null> {
    return (await (await this.#notifications()).findOne({ project_id: projectId, replaces: id }, { projection: { _id: 1 } }))?._id ?? null;
  }

  /** True when the project's read model (any project's: `undefined`) holds this notification. */
  async notificationExists(projectId: string | undefined, id: string): Promise<boolean> {
    return (await (await this.#notifications()).findOne({ _id: id, ...scope(projectId) }, { projection: { _id: 1 } })) !== null;
  }

  /** A page of the project's notifications (in one status, when given; test sends only with `includeTests`), newest first. */
  async notificationPage(projectId: string, status: NotificationStatus | undefined, page: PageWindow, includeTests = false): Promise<NotificationDocument[]> {
    const filter = { project_id: projectId, ...(status === undefined ? {} : { status }), ...testsFilter(includeTests) };
    return (await this.#notifications()).find(filter).sort({ created_at: -1, _id: -1 }).skip(page.skip).limit(page.limit).toArray();
  }

  /** A page of a search, newest first. */
  async searchPage(projectId: string, search: NotificationSearch, page: PageWindow): Promise<NotificationDocument[]> {
    return (await this.#notifications()).find(searchFilter(projectId, search)).sort({ created_at: -1, _id: -1 }).skip(page.skip).limit(page.limit).toArray();
  }

  /** How many notifications a search matches, counted up to `limit`. */
  async searchCount(projectId: string, search: NotificationSearch, limit: number): Promise<number> {
    const [notifications, store] = await Promise.all([this.#notifications(), this.#readModels.store()]);
    return store.count(notifications, searchFilter(projectId, search), { limit });
  }

  /** Which of these ids the project's read model holds. */
  async storedIds(projectId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await (await this.#notifications()).find({ _id: { $in: [...ids] }, project_id: projectId }, { projection: { _id: 1 } }).toArray();
    return new Set(found.map((doc) => doc._id));
  }

  /** The project's notification counters by status (libs/read-models notification-counts.ts); undefined when none were counted. */
  async notificationCounts(projectId: string, includeTests = false): Promise<Record<string, number> | undefined> {
    const counters = await this.#readModels.countsCollection<CounterDocument>('notifications');
    const read = await readCounts(counters, projectId, includeTests ? [NOTIFICATIONS_COUNT_KEY, TEST_NOTIFICATIONS_COUNT_KEY] : [NOTIFICATIONS_COUNT_KEY]);
    const campaigns = read.get(NOTIFICATIONS_COUNT_KEY);
    const tests = includeTests ? read.get(TEST_NOTIFICATIONS_COUNT_KEY) : undefined;
    if (tests === undefined) return campaigns;
    const sum: Record<string, number> = { ...campaigns };
    for (const [status, n] of Object.entries(tests)) sum[status] = (sum[status] ?? 0) + n;
    return sum;
  }
}
