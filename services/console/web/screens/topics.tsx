import { useLocation } from 'preact-iso';
import { api, dataOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, Pager, queryString, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatCount, formatTime } from '../lib/format.ts';

export function Topics() {
  useTitle('Topics');
  const { query } = useLocation();
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const topics = useLoad(async () => dataOf(await api.GET('/api/v1/topics', { params: { query: { page, limit: 50 } } })), [page]);
  return (
    <section>
      <h1>Topics</h1>
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
                      <a href={`/console/compose${queryString({ topic: topic.name })}`}>
                        Send to this topic<span class="visually-hidden">: {topic.name}</span>
                      </a>
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
