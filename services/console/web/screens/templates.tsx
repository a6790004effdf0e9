import { useLocation } from 'preact-iso';
import { api, dataOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, Pager, queryString, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatTime } from '../lib/format.ts';

const PAGE_SIZE = 50;

/** The template library: every template of the project, newest version and when it changed; each opens in the editor. */
export function Templates() {
  useTitle('Templates');
  const { query } = useLocation();
  const page = Math.max(1, Number(query.page ?? '1') || 1);
  const list = useLoad(async () => dataOf(await api.GET('/api/v1/templates', { params: { query: { page, limit: PAGE_SIZE } } })), [page]);
  return (
    <section>
      <h1>Templates</h1>
      <p class="lead">
        Content written once in Liquid, with a version per change and content per language. A send names a template (and a version, or the newest); each device gets its
        language's content, rendered with its own values.
      </p>
      <div class="toolbar">
        <a class="button" href="/console/templates/new" data-testid="new-template">
          New template
        </a>
      </div>
      <Errors errors={list.errors} onRetry={list.reload} />
      <Loading when={list.loading && list.data === undefined} />
      {list.data === undefined ? null : list.data.data.length === 0 ? (
        <p class="muted" data-testid="templates-empty">
          No template yet. A template keeps a notification's content, in every language it is sent in, ready to be sent again.
        </p>
      ) : (
        <TableScroll label="Templates">
          <table data-testid="templates">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" class="num">
                  Newest version
                </th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((template) => (
                <tr key={template.id}>
                  <td>
                    <a href={`/console/templates/${template.id}`}>{template.name}</a>
                  </td>
                  <td class="num">{template.latest_version}</td>
                  <td>{formatTime(template.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {list.data === undefined ? null : <Pager pagination={list.data.pagination} href={(n) => `/console/templates${queryString({ page: n === 1 ? undefined : n })}`} />}
    </section>
  );
}
