import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, dataOf, errorsOf, messagesOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { ConfirmButton, Errors, Loading, Pager, queryString, StatusBadge, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatTime } from '../lib/format.ts';
import { platformLabel } from '../lib/platforms.ts';
import { ReceiptTable } from './receipts.tsx';
import { DeviceTimeline } from './explain.tsx';
import { useNotificationTitles, useShowIds, useTopicNames } from '../components/names.tsx';

/** Key/value pairs (metadata, identifiers) as a table of text. */
function Pairs({ label, values }: { label: string; values: Record<string, string> }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return <p class="muted">None.</p>;
  return (
    <TableScroll label={label}>
      <table data-testid={label.toLowerCase()}>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([key, value]) => (
            <tr key={key}>
              <td class="mono">{key}</td>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** An iOS device's Live Activity tokens: push-to-start per attributes type, update per running activity. */
function LiveActivityTokens({ id }: { id: string }) {
  const tokens = useLoad(async () => dataOf(await api.GET('/api/v1/devices/{id}/live-activity-tokens', { params: { path: { id } } })).data, [id]);
  return (
    <>
      <h2>Live Activities</h2>
      <Errors errors={tokens.errors} onRetry={tokens.reload} />
      {tokens.data === undefined ? <Loading when={tokens.loading} /> : tokens.data.length === 0 ? <p class="muted">No Live Activity tokens.</p> : (
        <TableScroll label="Live Activity tokens">
          <table data-testid="live-activity-tokens">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Activity or attributes type</th>
                <th scope="col">Token</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <td>{token.kind === 'push_to_start' ? 'Push to start' : 'Update'}</td>
                  <td class="mono">{token.kind === 'update' ? token.activity_id : token.attributes_type}</td>
                  <td class="mono clip">{token.token}</td>
                  <td>{formatTime(token.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

export function DevicePage() {
  const { params } = useRoute();
  const { query, path } = useLocation();
  const id = params.id ?? '';
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const device = useLoad(async () => dataOf(await api.GET('/api/v1/devices/{id}', { params: { path: { id } } })).data, [id]);
  const receipts = useLoad(async () => dataOf(await api.GET('/api/v1/devices/{id}/receipts', { params: { path: { id }, query: { page, limit: 20 } } })), [id, page]);
  // Names where people read them: topics and notifications by name, ids on demand.
  const topicNames = useTopicNames();
  const titles = useNotificationTitles(receipts.data?.data.map((row) => row.notification_id) ?? []);
  const [showIds, IdsToggle] = useShowIds();
  const [deleteErrors, setDeleteErrors] = useState<string[] | undefined>(undefined);
  const [deleted, setDeleted] = useState(false);
  useTitle(`Device ${id}`);
  const data = device.data;
  const remove = async () => {
    setDeleteErrors(undefined);
    try {
      const { error, response } = await api.DELETE('/api/v1/devices/{id}', { params: { path: { id } } });
      if (!response.ok) return setDeleteErrors(errorsOf(error, response.status));
      setDeleted(true);
      device.reload();
    } catch (error) {
      setDeleteErrors(messagesOf(error));
    }
  };
  return (
    <section>
      <p class="breadcrumb">
        <a href="/console/devices">Devices</a>
      </p>
      <h1>
        Device <span class="mono">{id}</span>
      </h1>
      <Errors errors={device.errors} onRetry={device.reload} />
      {data === undefined ? <Loading when={device.loading} /> : (
        <>
          <div class="toolbar">
            <IdsToggle />
            <span data-testid="device-status">
              <StatusBadge status={data.status} />
            </span>
            {data.status === 'active' ? <ConfirmButton label="Delete device" question="Delete this device? It will not be targeted again (until the app registers its token again)." confirmLabel="Yes, delete it" onConfirm={remove} /> : null}
          </div>
          {deleted ? <p role="status">Deleted: the device is inactive and will not be targeted again.</p> : null}
          <Errors errors={deleteErrors} />
          <dl class="facts">
            <dt>Platform</dt>
            <dd>{platformLabel(data.platform, true)}</dd>
            <dt>Status</dt>
            <dd>
              {data.status}
              {data.deactivation === null ? '' : ` — ${data.deactivation.reason}${data.deactivation.provider === undefined ? '' : ` (${data.deactivation.provider})`} at ${formatTime(data.deactivation.at)}`}
            </dd>
            <dt>Token</dt>
            <dd class="mono wrap">{data.token}</dd>
            <dt>User</dt>
            <dd>{data.external_id ?? '–'}</dd>
            <dt>Time zone</dt>
            <dd>{data.timezone ?? '–'}</dd>
            <dt>Locale</dt>
            <dd>{data.locale ?? '–'}</dd>
            <dt>Registered</dt>
            <dd>{formatTime(data.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{formatTime(data.updated_at)}</dd>
            <dt>Topics</dt>
            <dd>
              {data.topics.length === 0 ? '–' : (
                <ul class="plain">
                  {data.topics.map((topic) => (
                    <li key={topic} data-testid="device-topic">
                      {topicNames.data?.get(topic) ?? <span class="mono">{topic}</span>}
                      {showIds && topicNames.data?.has(topic) === true ? <span class="muted mono"> {topic}</span> : null}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
          <h2>Metadata</h2>
          <Pairs label="Metadata" values={data.metadata} />
          <h2>Identifiers</h2>
          <Pairs label="Identifiers" values={data.identifiers} />
          {data.platform === 'ios' ? <LiveActivityTokens id={id} /> : null}
        </>
      )}
      <h2>Timeline</h2>
      <DeviceTimeline id={id} />
      <h2>Receipts</h2>
      <Errors errors={receipts.errors} onRetry={receipts.reload} />
      {receipts.data === undefined ? <Loading when={receipts.loading} /> : (
        <>
          <ReceiptTable rows={receipts.data.data} link="notification" titles={titles.data} showIds={showIds} />
          <Pager pagination={receipts.data.pagination} href={(next) => `${path}${queryString({ page: next === 1 ? undefined : next })}`} />
        </>
      )}
    </section>
  );
}
