import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ChartConfiguration } from 'chart.js';
import { api, dataOf } from '../api/client.ts';
import { ChartCanvas, COLORS, countAxis } from '../components/chart.tsx';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, Stat } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatClock, formatUtcDay } from '../lib/format.ts';
import { chartBuckets, OVERVIEW_WINDOWS, overviewWindow } from '../lib/overview-window.ts';
import { NotificationTable } from './notification-table.tsx';

export function Overview() {
  useTitle('Overview');
  const { query, route, path } = useLocation();
  // In the address (`?hours=168`), so a chosen window survives a reload and can be shared.
  const window = overviewWindow(query.hours);
  const overview = useLoad(async () => dataOf(await api.GET('/api/v1/overview', { params: { query: { hours: window.hours } } })).data, [window.hours]);
  const recent = useLoad(async () => dataOf(await api.GET('/api/v1/notifications', { params: { query: { limit: 5 } } })).data, []);
  const data = overview.data;
  const chart = useMemo<ChartConfiguration | undefined>(() => {
    if (data === undefined) return undefined;
    const buckets = chartBuckets(data.hours, data.window_hours);
    return {
      type: 'bar',
      data: {
        labels: buckets.map((bucket) => (bucket.span === 'hour' ? formatClock(bucket.at) : formatUtcDay(bucket.at))),
        datasets: [
          { label: 'Delivered', data: buckets.map((bucket) => bucket.delivered), backgroundColor: COLORS.delivered },
          { label: 'Failed or invalid', data: buckets.map((bucket) => bucket.failed + bucket.invalid), backgroundColor: COLORS.failed },
          { label: 'Opened', data: buckets.map((bucket) => bucket.opened), backgroundColor: COLORS.opened },
        ],
      },
      options: { scales: { y: countAxis } },
    };
  }, [data]);
  return (
    <section>
      <h1>Overview</h1>
      <Errors errors={overview.errors} onRetry={overview.reload} />
      <Loading when={overview.loading && data === undefined} />
      {data === undefined ? null : (
        <>
          <h2>Devices</h2>
          <div class="stats">
            <Stat label="iOS active" value={data.devices.ios.active} testId="devices-ios-active" />
            <Stat label="iOS inactive" value={data.devices.ios.inactive} testId="devices-ios-inactive" />
            <Stat label="Android active" value={data.devices.android.active} testId="devices-android-active" />
            <Stat label="Android inactive" value={data.devices.android.inactive} testId="devices-android-inactive" />
            <Stat label="Web active" value={data.devices.web.active} testId="devices-web-active" />
            <Stat label="Web inactive" value={data.devices.web.inactive} testId="devices-web-inactive" />
            <Stat label="Huawei active" value={data.devices.huawei.active} testId="devices-huawei-active" />
            <Stat label="Huawei inactive" value={data.devices.huawei.inactive} testId="devices-huawei-inactive" />
          </div>
          <h2>{window.label}</h2>
          <p class="toolbar">
            <label>
              Window{' '}
              <select data-testid="overview-window" value={String(window.hours)} onChange={(event) => route(`${path}?hours=${(event.target as HTMLSelectElement).value}`)}>
                {OVERVIEW_WINDOWS.map((choice) => (
                  <option key={choice.hours} value={String(choice.hours)}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </label>
            <span class="muted">Test sends are not counted.</span>
          </p>
          <div class="stats">
            <Stat label="Delivered" value={data.outcomes.delivered} testId="outcomes-delivered" />
            <Stat label="Failed" value={data.outcomes.failed} testId="outcomes-failed" />
            <Stat label="Invalid tokens" value={data.outcomes.invalid} testId="outcomes-invalid" />
            <Stat label="Opened" value={data.outcomes.opened} of={data.outcomes.delivered} testId="outcomes-opened" />
          </div>
          {chart === undefined || data.hours.length === 0 ? (
            <p class="muted">No deliveries in the {window.label.toLowerCase()}.</p>
          ) : (
            <ChartCanvas config={chart} label={`Deliveries, failures and opens per ${data.window_hours <= 24 ? 'hour' : 'day'} over the ${window.label.toLowerCase()}`} />
          )}
        </>
      )}
      <h2>Recent notifications</h2>
      <Errors errors={recent.errors} onRetry={recent.reload} />
      {recent.data === undefined ? <Loading when={recent.loading} /> : <NotificationTable notifications={recent.data} />}
      <p>
        <a href="/console/notifications">All notifications</a> · <a href="/console/compose">Compose a notification</a>
      </p>
    </section>
  );
}
