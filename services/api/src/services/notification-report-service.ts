import type { Static } from 'typebox';
import { NotFoundError } from '@herald/errors';
import { LedgerQueries, NotificationQueries, ReportQueries, type ReadModelRegistry } from '@herald/mongo';
import { csvLine } from '../domain/csv.ts';
import { receiptView } from '../domain/receipts.ts';
import { decisionRow, localeRows, variantRows } from '../domain/report-breakdowns.ts';
import { RECEIPT_CSV_COLUMNS, type notificationReportSchema } from '../schemas/console-reads.ts';
import type { AcceptedHere } from '../domain/just-sent.ts';

type ReportView = Static<(typeof notificationReportSchema)['response'][200]>['data'];

/** Ledger documents (batches of ≤ 500 devices) read at once while a CSV streams: bounds memory. */
const CSV_BATCHES_AT_ONCE = 4;

/** A notification's report (failures by reason, timeline) and its receipts as a CSV stream. */
export class NotificationReportService {
  readonly #notifications: NotificationQueries;
  readonly #reports: ReportQueries;
  readonly #ledger: LedgerQueries;
  readonly #accepted: AcceptedHere | undefined;

  constructor(deps: { readModels: ReadModelRegistry; accepted?: AcceptedHere }) {
    this.#notifications = new NotificationQueries(deps.readModels);
    this.#reports = new ReportQueries(deps.readModels);
    this.#ledger = new LedgerQueries(deps.readModels);
    this.#accepted = deps.accepted;
  }

  /** In the read model, or accepted by this instance a moment ago (its report is then still empty). */
  async #requireNotification(projectId: string, id: string): Promise<void> {
    if (!(await this.#notifications.notificationExists(projectId, id)) && this.#accepted?.find(projectId, id) === undefined) {
      throw new NotFoundError(`notification ${id} does not exist in project ${projectId}`);
    }
  }

  /**
   * Empty lists until the first outcome is projected. An A/B send's funnels
   * by variant and its decision are the notification's own counts (one place
   * for them); the locales' are the report's.
   */
  async report(projectId: string, id: string): Promise<ReportView> {
    const [notification, doc] = await Promise.all([this.#notifications.reportFacts(projectId, id), this.#reports.report(projectId, id)]);
    if (notification === null) await this.#requireNotification(projectId, id);
    const variants = notification === null ? undefined : variantRows(notification);
    const decision = notification === null ? undefined : decisionRow(notification);
    const locales = localeRows(doc?.by_locale);
    return {
      failures: (doc?.failures ?? []).map(({ provider, outcome, reason, count }) => ({ provider, outcome, reason, count })),
      timeline: (doc?.timeline ?? []).map(({ at, span, delivered, failed, invalid, cancelled, opened }) => ({ at, span, delivered, failed, invalid, cancelled, opened })),
      ...(variants === undefined ? {} : { variants }),
      ...(decision === undefined ? {} : { decision }),
      ...(locales === undefined ? {} : { locales }),
    };
  }

  /**
   * The notification that replaced this one (an edit of a scheduled send),
   * read from the replacement's `replaces`: the read model, else this
   * instance's sends of a moment ago. Asked for cancelled ones only (an
   * edit cancels what it replaces).
   */
  async replacedBy(projectId: string, id: string): Promise<string | undefined> {
    return (await this.#notifications.replacementOf(projectId, id)) ?? this.#accepted?.replacementOf(projectId, id);
  }

  /**
   * Checks the notification exists (so a 404 is still possible), then returns
   * the CSV lines to stream: the header, then every receipt in the receipts
   * endpoint's order. Batch ids are read first (sorted, without devices), then
   * each batch by `_id`, a few at a time, so memory holds a few batches.
   */
  async receiptsCsv(projectId: string, id: string): Promise<AsyncIterable<string>> {
    await this.#requireNotification(projectId, id);
    const ledger = this.#ledger;
    const batchIds = await ledger.batchIds(projectId, id);
    return (async function* lines() {
      yield csvLine(RECEIPT_CSV_COLUMNS);
      for (let start = 0; start < batchIds.length; start += CSV_BATCHES_AT_ONCE) {
        const docs = await Promise.all(batchIds.slice(start, start + CSV_BATCHES_AT_ONCE).map((batchId) => ledger.batch(projectId, batchId)));
        for (const doc of docs) {
          if (doc === null) continue;
          let chunk = '';
          for (const device of doc.devices) {
            const row = receiptView(doc, device);
            chunk += csvLine(RECEIPT_CSV_COLUMNS.map((column) => row[column]));
          }
          yield chunk;
        }
      }
    })();
  }
}
