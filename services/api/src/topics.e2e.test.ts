import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicIdFor } from '@herald/events';
import { startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

let harness: ApiHarness;
beforeAll(async () => {
  harness = await startApiHarness('topics');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

type TopicRow = { id: string; name: string; subscribers: number };

describe('topics', () => {
  it('creates topics idempotently by name and lists them with subscriber counts', async () => {
    const project = await harness.createProject('topics');
    const created = await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'news' } });
    expect(created).toMatchObject({ status: 201, body: { data: { id: topicIdFor(project.id, 'news'), name: 'news', subscribers: 0 } } });
    const repeated = await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'news' } });
    expect((repeated.body as { data: TopicRow }).data.id).toBe(topicIdFor(project.id, 'news'));

    // Subscribing creates topics on first use.
    for (const [token, topics] of [['t1', ['news', 'sport']], ['t2', ['news']], ['t3', ['weather']]] as const) {
      await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'android', topics } });
    }
    const listed = await waitFor('three topics with their subscribers', async () => {
      const response = await harness.request('GET', '/api/v1/topics', { key: project.api_key });
      const rows = response.body?.data as TopicRow[] | undefined;
      return rows?.length === 3 && rows.find((row) => row.name === 'news')?.subscribers === 2 ? response : undefined;
    });
    expect((listed.body!.data as TopicRow[]).map(({ name, subscribers }) => ({ name, subscribers }))).toEqual([
      { name: 'news', subscribers: 2 },
      { name: 'sport', subscribers: 1 },
      { name: 'weather', subscribers: 1 },
    ]);
    expect(listed.body!.pagination).toEqual({ count: 3, page: 1, pages: 1, from: 1, to: 3, last: 1 });

    const page = await harness.request('GET', '/api/v1/topics?limit=2&page=2', { key: project.api_key });
    expect(page.body).toMatchObject({ data: [{ name: 'weather' }], pagination: { count: 3, page: 2, pages: 2, from: 3, to: 3, last: 2 } });

    const other = await harness.createProject('other');
    const foreign = await harness.request('GET', '/api/v1/topics', { key: other.api_key });
    expect(foreign.body).toEqual({ data: [], pagination: { count: 0, page: 1, pages: 1, from: 0, to: 0, last: 1 } });
  });
});
