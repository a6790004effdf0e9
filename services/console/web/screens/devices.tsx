import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf } from '../api/client.ts';
import { findDevices, type Device } from '../api/find-devices.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, Pager, queryString, StatusBadge, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatTime } from '../lib/format.ts';
import { PLATFORMS, platformLabel, platformParam } from '../lib/platforms.ts';

export function Devices() {
  useTitle('Devices');
  const { query, route } = useLocation();
  const q = (query.q ?? '').trim();
  const status = query.status === 'active' || query.status === 'inactive' ? query.status : undefined;
  const platform = platformParam(query.platform);
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const [input, setInput] = useState(q);
  const found = useLoad(async () => (q === '' ? undefined : findDevices(q)), [q]);
  const list = useLoad(
    async () => (q !== '' ? undefined : dataOf(await api.GET('/api/v1/devices', { params: { query: { page, limit: 20, ...(status === undefined ? {} : { status }), ...(platform === undefined ? {} : { platform }) } } }))),
    [q, status, platform, page],
  );
  const href = (next: { q?: string; status?: string | undefined; platform?: string | undefined; page?: number }) =>
    `/console/devices${queryString({ q: next.q, status: next.status, platform: next.platform, page: next.page === 1 ? undefined : next.page })}`;
  return (
    <section>
      <h1>Devices</h1>
      <form
        class="toolbar"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          route(href({ q: input.trim() }));
        }}
      >
        <label for="device-query">Find by id, token or external id</label>
        <input id="device-query" type="search" value={input} onInput={(event) => setInput(event.currentTarget.value)} aria-describedby="device-query-hint" />
        <button type="submit">Find</button>
        <span class="hint" id="device-query-hint">
          or key=value for a metadata pair
        </span>
      </form>
      {q === '' ? (
        <>
          <div class="toolbar">
            <label for="device-status">Status</label>
            <select id="device-status" value={status ?? ''} onChange={(event) => route(href({ status: event.currentTarget.value || undefined, platform, page: 1 }))}>
              <option value="">All</option>
              <option value="active">active</option>
              <option value="inactive">inactive</option>
            </select>
            <label for="device-platform">Platform</label>
            <select id="device-platform" value={platform ?? ''} onChange={(event) => route(href({ status, platform: event.currentTarget.value || undefined, page: 1 }))}>
              <option value="">All</option>
              {PLATFORMS.map((value) => (
                <option key={value} value={value}>
                  {platformLabel(value)}
                </option>
              ))}
            </select>
          </div>
          <Errors errors={list.errors} onRetry={list.reload} />
          {list.data === undefined ? <Loading when={list.loading} /> : (
            <>
              <DeviceTable devices={list.data.data} />
              <Pager pagination={list.data.pagination} href={(next) => href({ status, platform, page: next })} />
            </>
          )}
        </>
      ) : (
        <>
          <h2>Devices matching “{q}”</h2>
          <Errors errors={found.errors} onRetry={found.reload} />
          {found.data === undefined ? <Loading when={found.loading} /> : <DeviceTable devices={found.data} />}
        </>
      )}
    </section>
  );
}

export function DeviceTable({ devices }: { devices: readonly Device[] }) {
  if (devices.length === 0) return <p class="muted">No devices.</p>;
  return (
    <TableScroll label="Devices">
      <table data-testid="devices">
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Platform</th>
            <th scope="col">Status</th>
            <th scope="col">User</th>
            <th scope="col">Token</th>
            <th scope="col">Registered</th>
          </tr>
        </thead>
        <tbody>
          {devices.map((device) => (
            <tr key={device.id}>
              <td class="mono">
                <a href={`/console/devices/${device.id}`}>{device.id}</a>
              </td>
              <td>{platformLabel(device.platform)}</td>
              <td>
                <StatusBadge status={device.status} />
              </td>
              <td>{device.external_id ?? '–'}</td>
              <td class="mono clip">{device.token}</td>
              <td>{formatTime(device.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
