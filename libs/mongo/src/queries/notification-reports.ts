import type { CounterDocument, NotificationReportDocument } from '@herald/read-models';
import type { ReadModelRegistry } from '../read-models.ts';
import { readCounts } from './counters.ts';

/** The questions the API asks of the `notification_reports` read model and its hourly outcome counters. */
export class ReportQueries {
  readonly #readModels: ReadModelRegistry;

  constructor(readModels: ReadModelRegistry) {
    this.#readModels = readModels;
  }

  /** The project's report of a notification, or null before its first outcome is projected. */
  async report(projectId: string, notificationId: string): Promise<NotificationReportDocument | null> {
    return (await this.#readModels.collection<NotificationReportDocument>('notification_reports')).findOne({ _id: notificationId, project_id: projectId });
  }

  /** The project's outcome counters of these keys (libs/read-models outcome-counts.ts), summed. */
  async outcomeCounts(projectId: string, keys: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return readCounts(await this.#readModels.countsCollection<CounterDocument>('notification_reports'), projectId, keys);
  }
}
