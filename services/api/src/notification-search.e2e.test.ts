import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsToken, createTopics, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * The notification list's search (issue 49, item 5) over the real Kafka,
 * store and delivery: words in the title (as typed, case-insensitive), a
 * date range, an outcome; kept to the project; bad input named.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };
const ids: Record<string, string> = {};

type Listed = { data: Array<{ id: string; title: string }>; pagination: { count: number } };
const list = async (query: string, key = project.api_key) => {
  const response = await harness.request('GET', `/api/v1/notifications?${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Listed;
};
const titles = (listed: Listed) => listed.data.map((each) => each.title).sort();

async function send(title: string, topic: string): Promise<string> {
  const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title, body: 'b', targets: [topic] } } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const id = (sent.body!.data as { id: string }).id;
  await waitFor(`${title} sent`, async () => ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string }).status === 'sent', 90_000);
  return id;
}

let between: string;

beforeAll(async () => {
  harness = await startApiHarness('notification-search', { delivery: true });
  project = await harness.createProject('notification-search');
  other = await harness.createProject('notification-search-other');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['news', 'empty']);
  expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', token: apnsToken('search-1'), topics: ['news'] } })).status).toBe(201);
  await waitFor('device projected', async () => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key })).body?.pagination as { count: number }).count === 1);
  ids.winter = await send('Winter SALE (50%)', 'news');
  between = new Date().toISOString();
  ids.spring = await send('Spring news', 'empty');
  ids.sale = await send('Another sale', 'empty');
  await waitFor('all three listed', async () => (await list('limit=10')).pagination.count === 3);
}, 240_000);

afterAll(async () => {
  await harness?.stop();
});

describe('test sends', () => {
  it('are delivered to the devices named, marked, and left out of the list and its count unless asked for', async () => {
    const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Test: Winter sale', body: 'b', targets: [{ token: apnsToken('search-1') }], test_send: true } } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const id = (sent.body!.data as { id: string }).id;
    await waitFor('the test send delivered by the fake APNs', async () => harness.fakes!.apns.deliveries.some((delivery) => (delivery.payload as { notification_id?: string }).notification_id === id), 90_000);
    expect((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body).toMatchObject({ data: { id, test_send: true } });
    await waitFor('the test send projected', async () => (await list('include_tests=true&limit=10')).pagination.count === 4);
    const listed = await list('limit=10');
    expect(listed.data.map((each) => each.id)).not.toContain(id);
    expect(listed.pagination.count).toBe(3);
    // A search reads the read model only: the test send shows there once projected.
    await waitFor('the test send found by a search that includes tests', async () => (await list('include_tests=true&q=winter')).data.some((each) => each.id === id));
    expect((await list('q=winter')).data.map((each) => each.id)).not.toContain(id);
  });

  it('name devices only, a few of them (422 naming the target)', async () => {
    const topic = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 't', body: 'b', targets: ['news'], test_send: true } } });
    expect(topic.status).toBe(422);
    expect(JSON.stringify(topic.body)).toContain('notification.targets[0]: a test send names devices only');
    const many = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 't', body: 'b', targets: Array.from({ length: 21 }, (_, n) => ({ token: `t-${n}` })), test_send: true } } });
    expect(many.status).toBe(422);
    expect(JSON.stringify(many.body)).toContain('at most 20');
  });
});

describe('searching the notifications', () => {
  it('finds words of the title as typed, case-insensitive, pattern characters literal', async () => {
    expect(titles(await list('q=sale'))).toEqual(['Another sale', 'Winter SALE (50%)']);
    expect(titles(await list(`q=${encodeURIComponent('(50%)')}`))).toEqual(['Winter SALE (50%)']);
    expect((await list(`q=${encodeURIComponent('.*')}`)).pagination.count).toBe(0);
  });

  it('filters by a date range and by an outcome, with the other filters', async () => {
    expect(titles(await list(`created_to=${encodeURIComponent(between)}`))).toEqual(['Winter SALE (50%)']);
    expect(titles(await list(`created_from=${encodeURIComponent(between)}`))).toEqual(['Another sale', 'Spring news']);
    expect(titles(await list(`created_from=${encodeURIComponent(between)}&q=sale`))).toEqual(['Another sale']);
    expect(titles(await list('outcome=delivered'))).toEqual(['Winter SALE (50%)']);
    expect((await list('outcome=delivered&status=sent')).pagination.count).toBe(1);
  });

  it('keeps to the project and names bad input', async () => {
    expect((await list('q=sale', other.api_key)).pagination.count).toBe(0);
    const empty = await harness.request('GET', `/api/v1/notifications?created_from=${encodeURIComponent(between)}&created_to=${encodeURIComponent(between)}`, { key: project.api_key });
    expect(empty.status).toBe(422);
    expect(JSON.stringify(empty.body)).toContain('created_to');
    const bad = await harness.request('GET', '/api/v1/notifications?created_from=yesterday', { key: project.api_key });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('created_from');
    expect((await harness.request('GET', '/api/v1/notifications?outcome=lost', { key: project.api_key })).status).toBe(400);
  });
});
