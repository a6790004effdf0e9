import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf } from '../api/client.ts';
import { followEvents } from '../api/events.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, Pager, queryString } from '../components/ui.tsx';
import { useLoad, useThrottled } from '../components/use-load.ts';
import { NotificationTable } from './notification-table.tsx';
import { apiSearch, NotificationSearch, OUTCOMES, type OutcomeFilter, type SearchQuery } from './notification-search.tsx';

/** Every status the API lists by (GET /api/v1/notifications?status=). */
const STATUSES = ['scheduled', 'queued', 'sending', 'paused', 'sent', 'cancelled', 'expired'] as const;
type Status = (typeof STATUSES)[number];
const asStatus = (value: string | undefined): Status | undefined => (STATUSES as readonly string[]).includes(value ?? '') ? (value as Status) : undefined;

/** Events that change a notification's status or counts. */
export const PROGRESS_EVENTS = ['DeliveryReported', 'NotificationDispatched', 'NotificationCancelled', 'NotificationExpired', 'NotificationOpened', 'NotificationSteered', 'AudienceEstimated'];

export function Notifications() {
  useTitle('Notifications');
  const { query, route } = useLocation();
  const status = asStatus(query.status);
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const search: SearchQuery = {
    q: query.q,
    from: query.from,
    to: query.to,
    outcome: (OUTCOMES as readonly string[]).includes(query.outcome ?? '') ? (query.outcome as OutcomeFilter) : undefined,
    tests: query.tests === '1' ? true : undefined,
  };
  const searchKey = JSON.stringify(search);
  const list = useLoad(
    async () => dataOf(await api.GET('/api/v1/notifications', { params: { query: { page, limit: 20, ...(status === undefined ? {} : { status }), ...apiSearch(search) } } })),
    [status, page, searchKey],
  );
  const active = (list.data?.data ?? []).some((item) => item.status === 'sending' || item.status === 'queued' || item.status === 'paused');
  const [live, setLive] = useState(false);
  const reload = useThrottled(list.reload, 1000);
  // While something on this page is being sent, its progress follows the event stream.
  useEffect(() => {
    if (!active) return;
    const stop = new AbortController();
    followEvents(PROGRESS_EVENTS, () => reload(), stop.signal, setLive);
    return () => {
      stop.abort();
      setLive(false);
    };
  }, [active, reload]);
  const href = (next: { status?: string | undefined; page?: number; search?: SearchQuery }) => {
    const shown = next.search ?? search;
    return `/console/notifications${queryString({ status: next.status, q: shown.q || undefined, from: shown.from, to: shown.to, outcome: shown.outcome, tests: shown.tests ? '1' : undefined, page: next.page === 1 ? undefined : next.page })}`;
  };
  return (
    <section>
      <h1>Notifications</h1>
      <div class="toolbar">
        <label for="status-filter">Status</label>
        <select id="status-filter" value={status ?? ''} onChange={(event) => route(href({ status: event.currentTarget.value || undefined, page: 1 }))}>
          <option value="">All</option>
          {STATUSES.map((item) => (
            <option key={item} value={item}>
              {item}
            </option>
          ))}
        </select>
        <a class="button" href="/console/compose">
          Compose
        </a>
        {live ? <span class="live" aria-live="polite">● Live</span> : null}
      </div>
      <NotificationSearch key={searchKey} search={search} onSearch={(next) => route(href({ status, page: 1, search: next }))} />
      <Errors errors={list.errors} onRetry={list.reload} />
      {list.data === undefined ? (
        <Loading when={list.loading} />
      ) : (
        <>
          {list.data.data.length === 0 && Object.keys(apiSearch(search)).length > 0 ? (
            <p data-testid="search-empty">No notification matches this search.</p>
          ) : (
            <NotificationTable notifications={list.data.data} />
          )}
          <Pager pagination={list.data.pagination} href={(next) => href({ status, page: next })} />
        </>
      )}
    </section>
  );
}
