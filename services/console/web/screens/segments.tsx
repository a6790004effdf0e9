import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf, errorsOf, messagesOf } from '../api/client.ts';
import { PLATFORM_LABELS } from '../components/audience-builder/count-view.tsx';
import { AudienceEditor } from '../components/audience-builder/editor.tsx';
import { useTitle } from '../components/layout.tsx';
import { ConfirmButton, Errors, Loading, Pager, queryString, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatCount, formatTime } from '../lib/format.ts';

/** One segment's audience now (GET …/count), loaded per row so a slow count never holds the list. */
function SegmentCount({ id }: { id: string }) {
  const count = useLoad(async () => dataOf(await api.GET('/api/v1/segments/{id}/count', { params: { path: { id } } })), [id]);
  if (count.errors !== undefined) {
    return (
      <span class="field-errors">
        Not counted.{' '}
        <button type="button" class="link-button" onClick={count.reload}>
          Try again
        </button>
      </span>
    );
  }
  if (count.data === undefined) return <span class="muted">Counting…</span>;
  const { total, by_platform } = count.data.data as { total: number; by_platform: Record<string, number> };
  return (
    <span data-testid="segment-count">
      {formatCount(total)}{' '}
      <span class="muted">
        ({Object.entries(by_platform)
          .map(([platform, n]) => `${PLATFORM_LABELS[platform] ?? platform} ${formatCount(n)}`)
          .join(', ')})
      </span>
    </span>
  );
}

/** A new segment: a name and the builder; 422 messages on the filter show at their node. */
function NewSegment({ topics, segments, onCreated }: { topics: readonly string[]; segments: readonly string[]; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [filter, setFilter] = useState<unknown>(undefined);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors([]);
    try {
      const { data, error, response } = await api.POST('/api/v1/segments', { body: { name: name.trim(), filter: filter as string } });
      if (data !== undefined) return onCreated(data.data.id);
      setErrors(response.status === 409 ? [`name: a segment named "${name.trim()}" already exists`] : errorsOf(error, response.status));
    } catch (error) {
      setErrors([`Could not save the segment. ${messagesOf(error).join(' ')}`]);
    } finally {
      setBusy(false);
    }
  };
  const nameErrors = errors.filter((message) => message.startsWith('name'));
  return (
    <form class="new-segment" onSubmit={(event) => void save(event)} noValidate>
      <h2>New segment</h2>
      <div class={`field${nameErrors.length > 0 ? ' has-error' : ''}`}>
        <label for="segment-name">Name</label>
        <input id="segment-name" type="text" value={name} aria-invalid={nameErrors.length > 0 ? 'true' : undefined} onInput={(event) => setName(event.currentTarget.value)} />
        {nameErrors.length === 0 ? null : (
          <ul class="field-errors">
            {nameErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
      </div>
      <AudienceEditor value={filter} onChange={setFilter} errors={errors} errorPrefix="filter" topics={topics} segments={segments} idPrefix="new-segment" />
      <Errors errors={errors.filter((message) => !message.startsWith('name') && !message.startsWith('filter'))} />
      <div class="actions">
        <button type="submit" disabled={busy || filter === undefined || name.trim() === ''}>
          {busy ? 'Saving…' : 'Save segment'}
        </button>
      </div>
    </form>
  );
}

export function Segments() {
  useTitle('Segments');
  const { query, route } = useLocation();
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const segments = useLoad(async () => dataOf(await api.GET('/api/v1/segments', { params: { query: { page, limit: 50 } } })), [page]);
  const topics = useLoad(async () => dataOf(await api.GET('/api/v1/topics', { params: { query: { limit: 100 } } })), []);
  const [deleteErrors, setDeleteErrors] = useState<string[] | undefined>(undefined);
  const remove = async (id: string) => {
    setDeleteErrors(undefined);
    try {
      const { response, error } = await api.DELETE('/api/v1/segments/{id}', { params: { path: { id } } });
      if (!response.ok) setDeleteErrors(errorsOf(error, response.status));
    } catch (error) {
      setDeleteErrors(messagesOf(error));
    }
    segments.reload();
  };
  const names = segments.data?.data.map((segment) => segment.name) ?? [];
  return (
    <section>
      <h1>Segments</h1>
      <p class="muted">Saved audiences: a send names one as a condition ("Saved segment" in the builder) and keeps the version it used, so a later edit never changes what a sent notification meant.</p>
      <Errors errors={deleteErrors} />
      <Errors errors={segments.errors} onRetry={segments.reload} />
      {segments.data === undefined ? (
        <Loading when={segments.loading} />
      ) : segments.data.data.length === 0 ? (
        <p class="muted">No segments yet.</p>
      ) : (
        <>
          <TableScroll label="Segments">
            <table data-testid="segments">
              <thead>
                <tr>
                  <th scope="col">Segment</th>
                  <th scope="col">Devices now</th>
                  <th scope="col" class="num">Versions</th>
                  <th scope="col">Changed</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {segments.data.data.map((segment) => (
                  <tr key={segment.id}>
                    <td>
                      <a href={`/console/segments/${segment.id}`}>{segment.name}</a>
                    </td>
                    <td>
                      <SegmentCount id={segment.id} />
                    </td>
                    <td class="num">{formatCount(segment.latest_version)}</td>
                    <td>{formatTime(segment.updated_at)}</td>
                    <td class="actions-cell">
                      <a href={`/console/segments/${segment.id}`} aria-label={`Edit: ${segment.name}`}>
                        Edit
                      </a>{' '}
                      <ConfirmButton label="Delete" detail={segment.name} question={`Delete the segment "${segment.name}" and its versions? Sends already accepted keep the version they used; new sends naming it are refused.`} confirmLabel="Yes, delete it" onConfirm={() => remove(segment.id)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager pagination={segments.data.pagination} href={(n) => `/console/segments${queryString({ page: n })}`} />
        </>
      )}
      <Errors errors={topics.errors} onRetry={topics.reload} />
      <NewSegment topics={topics.data?.data.map((topic) => topic.name) ?? []} segments={names} onCreated={(id) => route(`/console/segments/${id}`)} />
    </section>
  );
}
