import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf, messagesOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { ConfirmButton, Errors, Loading, Pager, queryString, TableScroll } from '../components/ui.tsx';
import { useLoad, useUntilShown } from '../components/use-load.ts';
import { formatCount, formatTime } from '../lib/format.ts';
import { TopicCreate } from './topic-create.tsx';

export function Topics() {
  useTitle('Topics');
  const { query } = useLocation();
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const topics = useLoad(async () => dataOf(await api.GET('/api/v1/topics', { params: { query: { page, limit: 50 } } })), [page]);
  const [deleteErrors, setDeleteErrors] = useState<string[] | undefined>(undefined);
  // The list is a read model: a topic created or deleted shows there a moment later.
  const [change, setChange] = useState<{ name: string; present: boolean } | undefined>(undefined);
  const listed = (name: string) => topics.data?.data.some((topic) => topic.name === name) ?? false;
  useUntilShown(topics.reload, change, change === undefined || listed(change.name) === change.present);
  // DELETE /api/v1/topics/{id}: no target resolves to it any more, and registrations naming it are refused.
  const remove = async (id: string, name: string) => {
    setDeleteErrors(undefined);
    setChange({ name, present: false });
    try {
      const { response, error } = await api.DELETE('/api/v1/topics/{id}', { params: { path: { id } } });
      if (!response.ok) setDeleteErrors((error as { errors?: string[] } | undefined)?.errors ?? [`the API answered ${response.status}`]);
    } catch (error) {
      setDeleteErrors(messagesOf(error));
    }
    topics.reload();
  };
  return (
    <section>
      <h1>Topics</h1>
      <TopicCreate
        onCreated={(name) => {
          setChange({ name, present: true });
          topics.reload();
        }}
      />
      <Errors errors={deleteErrors} />
      <Errors errors={topics.errors} onRetry={topics.reload} />
      {topics.data === undefined ? <Loading when={topics.loading} /> : topics.data.data.length === 0 ? <p class="muted">No topics yet.</p> : (
        <>
          <TableScroll label="Topics">
            <table data-testid="topics">
              <thead>
                <tr>
                  <th scope="col">Topic</th>
                  <th scope="col" class="num">Subscribers</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {topics.data.data.map((topic) => (
                  <tr key={topic.id}>
                    <td>{topic.name}</td>
                    <td class="num">{formatCount(topic.subscribers)}</td>
                    <td>{formatTime(topic.created_at)}</td>
                    <td>
                      <div class="row-actions">
                        <a href={`/console/compose${queryString({ topic: topic.name })}`}>
                          Send to this topic<span class="visually-hidden">: {topic.name}</span>
                        </a>
                        <ConfirmButton label="Delete" detail={topic.name} question={`Delete the topic "${topic.name}"? Sends stop reaching its ${formatCount(topic.subscribers)} subscribers through it, and registrations naming it are refused.`} confirmLabel="Yes, delete it" onConfirm={() => remove(topic.id, topic.name)} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager pagination={topics.data.pagination} href={(next) => `/console/topics${queryString({ page: next === 1 ? undefined : next })}`} />
        </>
      )}
    </section>
  );
}
