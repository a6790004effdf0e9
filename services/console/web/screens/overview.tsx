import { useMemo } from 'preact/hooks';
import type { ChartConfiguration } from 'chart.js';
import { api, dataOf } from '../api/client.ts';
import { ChartCanvas, COLORS, countAxis } from '../components/chart.tsx';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, Stat } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatClock } from '../lib/format.ts';
import { NotificationTable } from './notification-table.tsx';

export function Overview() {
  useTitle('Overview');
  const overview = useLoad(async () => dataOf(await api.GET('/api/v1/overview')).data, []);
  const recent = useLoad(async () => dataOf(await api.GET('/api/v1/notifications', { params: { query: { limit: 5 } } })).data, []);
  const data = overview.data;
  const chart = useMemo<ChartConfiguration | undefined>(() => {
    if (data === undefined) return undefined;
    return {
      type: 'bar',
      data: {
        labels: data.hours.map((hour) => formatClock(Date.parse(hour.hour))),
        datasets: [
          { label: 'Delivered', data: data.hours.map((hour) => hour.delivered), backgroundColor: COLORS.delivered },
          { label: 'Failed or invalid', data: data.hours.map((hour) => hour.failed + hour.invalid), backgroundColor: COLORS.failed },
          { label: 'Opened', data: data.hours.map((hour) => hour.opened), backgroundColor: COLORS.opened },
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
          <h2>Last 24 hours</h2>
          <div class="stats">
            <Stat label="Delivered" value={data.outcomes_24h.delivered} testId="outcomes-delivered" />
            <Stat label="Failed" value={data.outcomes_24h.failed} testId="outcomes-failed" />
            <Stat label="Invalid tokens" value={data.outcomes_24h.invalid} testId="outcomes-invalid" />
            <Stat label="Opened" value={data.outcomes_24h.opened} of={data.outcomes_24h.delivered} testId="outcomes-opened" />
          </div>
          {chart === undefined || data.hours.length === 0 ? <p class="muted">No deliveries in the last 24 hours.</p> : <ChartCanvas config={chart} label="Deliveries, failures and opens per hour over the last 24 hours" />}
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
