import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, dataOf } from '../api/client.ts';
import { followEvents } from '../api/events.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, StatusBadge } from '../components/ui.tsx';
import { SendProgress } from '../components/send-progress.tsx';
import { useLoad, useThrottled } from '../components/use-load.ts';
import { formatDuration, formatTime } from '../lib/format.ts';
import { PROGRESS_EVENTS } from './notifications.tsx';
import { targetText } from './notification-table.tsx';
import { Funnel, Failures, Timeline } from './report-charts.tsx';
import { Receipts } from './receipts.tsx';
import { Steering } from './report-steering.tsx';
import { DuplicateIntoDraft } from './report-duplicate.tsx';
import { LocaleResults, VariantResults } from './report-variants.tsx';
import { headingOf } from '../lib/report-content.ts';

/** How often the report looks again while its notification is queued or sending (besides every event it sees). */
const ACTIVE_POLL_MS = 3_000;

export function Report() {
  const { params } = useRoute();
  const { query } = useLocation();
  const id = params.id ?? '';
  const notification = useLoad(async () => dataOf(await api.GET('/api/v1/notifications/{id}', { params: { path: { id } } })).data, [id]);
  const report = useLoad(async () => dataOf(await api.GET('/api/v1/notifications/{id}/report', { params: { path: { id } } })).data, [id]);
  const [receiptsVersion, setReceiptsVersion] = useState(0);
  const data = notification.data;
  useTitle(data === undefined ? 'Notification' : headingOf(data).title);
  const reload = () => {
    notification.reload();
    report.reload();
    setReceiptsVersion((version) => version + 1);
  };
  const refresh = useThrottled(reload, 1000);
  // The stream is the log itself; the page reads read models, which follow the log a moment behind
  // (more under load): after a burst of events, look once more a little later so the last one shows.
  const catchUp = useThrottled(reload, 4000);
  // What happened before the stream was open (a small send is often done by then) reaches the page only
  // through the read model: while the notification is queued or sending, look again every few seconds.
  const active = data?.status === 'queued' || data?.status === 'sending' || data?.status === 'paused';
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(reload, ACTIVE_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, data]);
  const following = data !== undefined && data.status !== 'expired' && data.status !== 'cancelled';
  const [live, setLive] = useState(false);
  // Live while it is being sent, and afterwards for its opens.
  useEffect(() => {
    if (!following) return;
    const stop = new AbortController();
    followEvents(
      PROGRESS_EVENTS,
      (event) => {
        if (event.data.notification_id !== id) return;
        refresh();
        catchUp();
      },
      stop.signal,
      setLive,
    );
    return () => {
      stop.abort();
      setLive(false);
    };
  }, [following, id, refresh, catchUp]);

  if (data === undefined) {
    return (
      <section>
        <h1>Notification</h1>
        <Errors errors={notification.errors} onRetry={notification.reload} />
        <Loading when={notification.loading} />
      </section>
    );
  }
  const request = data.request as Record<string, unknown> | undefined;
  return (
    <section>
      <p class="breadcrumb">
        <a href="/console/notifications">Notifications</a>
      </p>
      <h1>{headingOf(data).title}</h1>
      <p class="lead">{headingOf(data).lead}</p>
      <div class="toolbar">
        <span data-testid="report-status">
          <StatusBadge status={data.status} />
        </span>
        {data.test_send === true ? <span class="badge badge-test">test send</span> : null}
        {live ? <span class="live" aria-live="polite">● Live</span> : null}
        <a href={`/console/notifications/${id}/explain`}>Why was a device not reached?</a>
        {data.status === 'scheduled' ? <DuplicateIntoDraft id={data.id} title={data.title} request={request} edit /> : null}
        <DuplicateIntoDraft id={data.id} title={data.title} request={request} />
      </div>
      <dl class="facts">
        <dt>Id</dt>
        <dd class="mono">{data.id}</dd>
        {data.replaces === undefined ? null : (
          <>
            <dt>Replaces</dt>
            <dd class="mono"><a href={`/console/notifications/${data.replaces}`}>{data.replaces}</a></dd>
          </>
        )}
        {data.replaced_by === undefined ? null : (
          <>
            <dt>Replaced by</dt>
            <dd class="mono"><a href={`/console/notifications/${data.replaced_by}`} data-testid="replaced-by">{data.replaced_by}</a></dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatTime(data.created_at)}</dd>
        {typeof request?.send_at === 'string' ? (
          <>
            <dt>Scheduled for</dt>
            <dd>{formatTime(request.send_at)}</dd>
          </>
        ) : null}
        {typeof request?.send_at_local === 'string' ? (
          <>
            <dt>Scheduled for</dt>
            <dd>{request.send_at_local} in each device's time zone</dd>
          </>
        ) : null}
        {data.priority_lane === null || data.priority_lane === undefined ? null : (
          <>
            <dt>Lane</dt>
            <dd>{data.priority_lane}</dd>
          </>
        )}
        {typeof request?.max_duration === 'number' ? (
          <>
            <dt>Max duration</dt>
            <dd>{formatDuration(request.max_duration)}</dd>
          </>
        ) : null}
        <dt>Dispatched</dt>
        <dd>{formatTime(data.dispatched_at)}</dd>
        <dt>Finished</dt>
        <dd>{formatTime(data.finished_at)}</dd>
        <dt>Targets</dt>
        <dd>
          <ul class="plain">
            {data.targets.map((target, n) => (
              <li key={n}>{targetText(target)}</li>
            ))}
          </ul>
        </dd>
      </dl>
      <SendProgress notification={{ status: data.status, counts: data.counts!, pace: data.pace, dispatched_at: data.dispatched_at, priority_lane: data.priority_lane }} />
      <Steering notification={data} onChanged={notification.reload} />
      <Funnel notification={data} />
      <VariantResults notification={data} report={report.data} />
      <LocaleResults report={report.data} />
      <Errors errors={report.errors} onRetry={report.reload} />
      {report.data === undefined ? <Loading when={report.loading} /> : (
        <>
          <Failures failures={report.data.failures} />
          <Timeline timeline={report.data.timeline} from={data.dispatched_at} until={data.finished_at} />
        </>
      )}
      <Receipts id={id} query={query} version={receiptsVersion} />
      <h2>The request as sent</h2>
      <pre class="json" data-testid="request-json">{JSON.stringify(request ?? {}, null, 2)}</pre>
    </section>
  );
}
