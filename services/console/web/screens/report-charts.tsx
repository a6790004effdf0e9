import { useMemo } from 'preact/hooks';
import type { ChartConfiguration } from 'chart.js';
import { ChartCanvas, COLORS, countAxis, timeAxis } from '../components/chart.tsx';
import { TableScroll } from '../components/ui.tsx';
import type { paths } from '@herald/client';
import type { Notification } from '../lib/draft.ts';
import { formatCount, formatShare, formatTime } from '../lib/format.ts';
import { cumulative, FUNNEL_STEPS, HELD_OUTCOMES, providerRows, type FunnelCounts } from '../lib/funnel.ts';
import { reasonMeaning } from '../lib/reasons.ts';
import { shownCounts } from '../lib/progress.ts';

type ReportData = paths['/api/v1/notifications/{id}/report']['get']['responses'][200]['content']['application/json']['data'];

const STEP_LABELS = { targeted: 'Targeted', sent: 'Sent', delivered: 'Delivered', opened: 'Opened' } as const;
const HELD_LABELS = { expired: 'Expired', capped: 'Capped', deferred: 'Deferred' } as const;

/** The funnel targeted → sent → delivered → opened per provider: a chart, and its numbers in a table. */
export function Funnel({ notification }: { notification: Notification }) {
  // Targeted as far as the other counts prove it: reports of a partition can come before its targeted count.
  const all = shownCounts(notification.counts!);
  // Web Push and Push Kit rows once the notification targeted such a device.
  const providers = providerRows(notification.counts_by_provider!).map((row) => ({ ...row, counts: shownCounts(row.counts) }));
  const rows: Array<{ key: string; label: string; counts: FunnelCounts }> = [...providers, { key: 'all', label: 'All', counts: all }];
  // max_duration, frequency caps and quiet hours: a column each, only when the notification has such devices.
  const held = HELD_OUTCOMES.filter((outcome) => ((all as FunnelCounts)[outcome] ?? 0) > 0);
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: FUNNEL_STEPS.map((step) => STEP_LABELS[step]),
        datasets: providers.map((provider) => ({
          label: provider.label,
          data: FUNNEL_STEPS.map((step) => provider.counts[step]),
          backgroundColor: COLORS[provider.key],
        })),
      },
      options: { indexAxis: 'y', scales: { x: countAxis } },
    }),
    [notification.counts_by_provider],
  );
  return (
    <>
      <h2>Funnel</h2>
      <ChartCanvas config={config} label="Delivery funnel per provider: targeted, sent, delivered, opened" />
      <TableScroll label="Funnel numbers">
        <table data-testid="funnel">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              {FUNNEL_STEPS.map((step) => (
                <th scope="col" class="num" key={step}>
                  {STEP_LABELS[step]}
                </th>
              ))}
              <th scope="col" class="num">Failed</th>
              <th scope="col" class="num">Invalid</th>
              <th scope="col" class="num">Cancelled</th>
              {held.map((outcome) => (
                <th scope="col" class="num" key={outcome}>
                  {HELD_LABELS[outcome]}
                </th>
              ))}
              <th scope="col" class="num">Open rate</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                {FUNNEL_STEPS.map((step) => (
                  <td class="num" key={step} data-testid={`funnel-${row.key}-${step}`}>
                    {formatCount(row.counts[step])}
                  </td>
                ))}
                <td class="num" data-testid={`funnel-${row.key}-failed`}>{formatCount(row.counts.failed)}</td>
                <td class="num" data-testid={`funnel-${row.key}-invalid`}>{formatCount(row.counts.invalid)}</td>
                <td class="num" data-testid={`funnel-${row.key}-cancelled`}>{formatCount(row.counts.cancelled)}</td>
                {held.map((outcome) => (
                  <td class="num" key={outcome} data-testid={`funnel-${row.key}-${outcome}`}>
                    {formatCount(row.counts[outcome] ?? 0)}
                  </td>
                ))}
                <td class="num">{formatShare(row.counts.opened, row.counts.delivered)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

export function Failures({ failures }: { failures: ReportData['failures'] }) {
  return (
    <>
      <h2>Failures by reason</h2>
      {failures.length === 0 ? (
        <p class="muted">No failures.</p>
      ) : (
        <TableScroll label="Failures by reason">
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Outcome</th>
                <th scope="col">Reason</th>
                <th scope="col" class="num">Devices</th>
                <th scope="col">What it means</th>
              </tr>
            </thead>
            <tbody>
              {failures.map((failure) => (
                <tr key={`${failure.provider}|${failure.outcome}|${failure.reason}`}>
                  <td>{failure.provider === 'apns' ? 'APNs' : 'FCM'}</td>
                  <td>{failure.outcome}</td>
                  <td class="mono">{failure.reason === '' ? '(none)' : failure.reason}</td>
                  <td class="num">{formatCount(failure.count)}</td>
                  <td>{reasonMeaning(failure.reason)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

/** Delivery progress and opens over time (running totals). */
export function Timeline({ timeline, from, until }: { timeline: ReportData['timeline']; from: string | null | undefined; until: string | null | undefined }) {
  const start = from === null || from === undefined ? undefined : Date.parse(from);
  const now = Date.now();
  // Progress runs to the end of the send (or now); opens keep coming after it, so they run to now.
  const progress = useMemo(() => cumulative(timeline, start, until === null || until === undefined ? now : Date.parse(until)), [timeline, start, until]);
  const opens = useMemo(() => cumulative(timeline, start, now), [timeline, start]);
  const progressConfig = useMemo<ChartConfiguration>(
    () => ({
      type: 'line',
      data: {
        datasets: [
          { label: 'Delivered', data: progress.map((point) => ({ x: point.at, y: point.delivered })), borderColor: COLORS.delivered, backgroundColor: COLORS.delivered, stepped: true },
          { label: 'Not delivered', data: progress.map((point) => ({ x: point.at, y: point.notDelivered })), borderColor: COLORS.failed, backgroundColor: COLORS.failed, stepped: true },
        ],
      },
      options: { scales: { x: timeAxis(progress[0]?.at ?? 0, progress.at(-1)?.at ?? 0), y: countAxis } },
    }),
    [progress],
  );
  const opensConfig = useMemo<ChartConfiguration>(
    () => ({
      type: 'line',
      data: { datasets: [{ label: 'Opened', data: opens.map((point) => ({ x: point.at, y: point.opened })), borderColor: COLORS.opened, backgroundColor: COLORS.opened, stepped: true }] },
      options: { scales: { x: timeAxis(opens[0]?.at ?? 0, opens.at(-1)?.at ?? 0), y: countAxis } },
    }),
    [opens],
  );
  const last = progress.at(-1);
  return (
    <>
      <h2>Delivery progress over time</h2>
      {last === undefined ? (
        <p class="muted">No outcomes yet.</p>
      ) : (
        <>
          <ChartCanvas config={progressConfig} label="Devices delivered and not delivered over time (running totals)" height={200} />
          <p class="muted">
            {formatCount(last.delivered)} delivered and {formatCount(last.notDelivered)} not delivered by {formatTime(new Date(last.at).toISOString())}.
          </p>
          <h2>Opens over time</h2>
          <ChartCanvas config={opensConfig} label="Opens over time (running total)" height={200} />
          <p class="muted">{formatCount(last.opened)} opens in all.</p>
        </>
      )}
    </>
  );
}
