import { NOTIFICATIONS_COUNT_KEY, type CounterDocument, type NotificationDocument, type NotificationStatus } from '@herald/read-models';
import type { ReadModelRegistry } from '../read-models.ts';
import { readCounts } from './counters.ts';
import { scope, type PageWindow } from './devices.ts';

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

  /** True when the project's read model (any project's: `undefined`) holds this notification. */
  async notificationExists(projectId: string | undefined, id: string): Promise<boolean> {
    return (await (await this.#notifications()).findOne({ _id: id, ...scope(projectId) }, { projection: { _id: 1 } })) !== null;
  }

  /** A page of the project's notifications (in one status, when given), newest first. */
  async notificationPage(projectId: string, status: NotificationStatus | undefined, page: PageWindow): Promise<NotificationDocument[]> {
    const filter = { project_id: projectId, ...(status === undefined ? {} : { status }) };
    return (await this.#notifications()).find(filter).sort({ created_at: -1, _id: -1 }).skip(page.skip).limit(page.limit).toArray();
  }

  /** Which of these ids the project's read model holds. */
  async storedIds(projectId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await (await this.#notifications()).find({ _id: { $in: [...ids] }, project_id: projectId }, { projection: { _id: 1 } }).toArray();
    return new Set(found.map((doc) => doc._id));
  }

  /** The project's notification counters by status (libs/read-models notification-counts.ts); undefined when none were counted. */
  async notificationCounts(projectId: string): Promise<Record<string, number> | undefined> {
    const counters = await this.#readModels.countsCollection<CounterDocument>('notifications');
    return (await readCounts(counters, projectId, [NOTIFICATIONS_COUNT_KEY])).get(NOTIFICATIONS_COUNT_KEY);
  }
}
