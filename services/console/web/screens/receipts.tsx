import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf, messagesOf } from '../api/client.ts';
import { Errors, Loading, Pager, queryString, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatTime } from '../lib/format.ts';

export const OUTCOMES = ['delivered', 'failed', 'invalid', 'cancelled'] as const;
export type OutcomeFilter = (typeof OUTCOMES)[number];
export const asOutcome = (value: string | undefined): OutcomeFilter | undefined => ((OUTCOMES as readonly string[]).includes(value ?? '') ? (value as OutcomeFilter) : undefined);

/** A notification's receipts: paged, filtered by outcome (both in the URL), each linking to its device; CSV export of all of them. */
export function Receipts({ id, query, version }: { id: string; query: Record<string, string>; version: number }) {
  const { route, path } = useLocation();
  const outcome = asOutcome(query.outcome);
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const receipts = useLoad(
    async () => dataOf(await api.GET('/api/v1/notifications/{id}/receipts', { params: { path: { id }, query: { page, limit: 25, ...(outcome === undefined ? {} : { outcome }) } } })),
    [id, outcome, page, version],
  );
  const [exportErrors, setExportErrors] = useState<string[] | undefined>(undefined);
  const [exporting, setExporting] = useState(false);
  const href = (next: { outcome?: string | undefined; page?: number }) => `${path}${queryString({ outcome: next.outcome, page: next.page === 1 ? undefined : next.page })}`;
  // The API streams the CSV; the browser saves it as a file.
  const exportCsv = async () => {
    setExporting(true);
    setExportErrors(undefined);
    let data: Blob;
    try {
      data = dataOf(await api.GET('/api/v1/notifications/{id}/receipts.csv', { params: { path: { id } }, parseAs: 'blob' }));
    } catch (error) {
      return setExportErrors(messagesOf(error));
    } finally {
      setExporting(false);
    }
    const url = URL.createObjectURL(data);
    const link = document.createElement('a');
    link.href = url;
    link.download = `receipts-${id}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <>
      <h2>Receipts</h2>
      <div class="toolbar">
        <label for="outcome-filter">Outcome</label>
        <select id="outcome-filter" value={outcome ?? ''} onChange={(event) => route(href({ outcome: event.currentTarget.value || undefined, page: 1 }))}>
          <option value="">All</option>
          {OUTCOMES.map((item) => (
            <option key={item} value={item}>
              {item}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void exportCsv()} disabled={exporting}>
          Export all receipts (CSV)
        </button>
      </div>
      <Errors errors={exportErrors ?? receipts.errors} />
      {receipts.data === undefined ? (
        <Loading when={receipts.loading} />
      ) : (
        <>
          <ReceiptTable rows={receipts.data.data} link="device" />
          <Pager pagination={receipts.data.pagination} href={(next) => href({ outcome, page: next })} />
        </>
      )}
    </>
  );
}

interface ReceiptRow {
  notification_id: string;
  device_id: string;
  provider: string;
  outcome: string;
  reason: string | null;
  attempts: number | null;
  delivered_at: string | null;
  opened_at: string | null;
  reported_at: string;
}

/** Receipt rows; `link` says which column links (the device on a notification's page, the notification on a device's). */
export function ReceiptTable({ rows, link, titles, showIds = true }: { rows: readonly ReceiptRow[]; link: 'device' | 'notification'; titles?: ReadonlyMap<string, string> | undefined; showIds?: boolean }) {
  if (rows.length === 0) return <p class="muted">No receipts.</p>;
  return (
    <TableScroll label="Receipts">
      <table data-testid="receipts">
        <thead>
          <tr>
            <th scope="col">{link === 'device' ? 'Device' : 'Notification'}</th>
            <th scope="col">Provider</th>
            <th scope="col">Outcome</th>
            <th scope="col">Reason</th>
            <th scope="col" class="num">Attempts</th>
            <th scope="col">Delivered</th>
            <th scope="col">Opened</th>
            <th scope="col">Reported</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.notification_id}|${row.device_id}`}>
              <td class="mono">
                {link === 'device' ? (
                  <a href={`/console/devices/${row.device_id}`}>{row.device_id}</a>
                ) : (
                  <>
                    <a href={`/console/notifications/${row.notification_id}`}>{titles?.get(row.notification_id) ?? row.notification_id}</a>
                    {showIds && titles?.has(row.notification_id) === true ? <span class="muted"> {row.notification_id}</span> : null}
                  </>
                )}
              </td>
              <td>{row.provider === 'apns' ? 'APNs' : 'FCM'}</td>
              <td>{row.outcome}</td>
              <td class="mono">{row.reason ?? '–'}</td>
              <td class="num">{row.attempts ?? '–'}</td>
              <td>{formatTime(row.delivered_at)}</td>
              <td>{formatTime(row.opened_at)}</td>
              <td>{formatTime(row.reported_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
