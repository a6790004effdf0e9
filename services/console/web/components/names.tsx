import { useState } from 'preact/hooks';
import { api, dataOf } from '../api/client.ts';
import { useLoad } from './use-load.ts';

/** Pages of topics read for their names: a project's topics up to this many. */
const TOPIC_PAGES = 10;

/** The project's topic names by id (for pages that hold topic ids, such as a device's subscriptions). */
export function useTopicNames() {
  return useLoad(async () => {
    const names = new Map<string, string>();
    for (let page = 1; page <= TOPIC_PAGES; page += 1) {
      const answer = dataOf(await api.GET('/api/v1/topics', { params: { query: { page, limit: 100 } } }));
      for (const topic of answer.data) names.set(topic.id, topic.name);
      if (page >= answer.pagination.pages) break;
    }
    return names;
  }, []);
}

/** The titles of these notifications by id, each asked of the API (a page of receipts names at most 20). */
export function useNotificationTitles(ids: readonly string[]) {
  const distinct = [...new Set(ids)].sort();
  return useLoad(async () => {
    const titles = new Map<string, string>();
    await Promise.all(
      distinct.map(async (id) => {
        const answer = await api.GET('/api/v1/notifications/{id}', { params: { path: { id } } });
        if (answer.data !== undefined) titles.set(id, answer.data.data.title === '' ? '(no title)' : answer.data.data.title);
      }),
    );
    return titles;
  }, [distinct.join(',')]);
}

/** A switch that shows ids beside names (people read names; support asks for ids). */
export function useShowIds(): [boolean, () => preact.JSX.Element] {
  const [shown, setShown] = useState(false);
  return [
    shown,
    () => (
      <button type="button" class="link-button" aria-pressed={shown} onClick={() => setShown(!shown)} data-testid="show-ids">
        {shown ? 'Hide ids' : 'Show ids'}
      </button>
    ),
  ];
}
