import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness } from '@herald/testing';
import { DRAFT_QUOTAS } from './services/draft-service.ts';

/**
 * Drafts (issue 49, item 1) over the real store: saved, listed newest
 * first, read, replaced and deleted; content kept exactly as given (keys
 * a document could not hold included), bounded in size; a duplicate names
 * its project's notification only; another project's draft is 404.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };

type Draft = { id: string; name: string; content: unknown; source_notification_id: string | null; updated_at: string };
const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, key = project.api_key) => harness.request(method, path, { key, ...(body === undefined ? {} : { body }) });

const content = { notification: { title: 'Winter sale', body: 'Half off', targets: [{ metadata: { 'plan.tier': 'gold', $odd: 1 } }], data: { deep: { list: [1, 'two', null] } } } };

beforeAll(async () => {
  harness = await startApiHarness('drafts');
  project = await harness.createProject('drafts');
  other = await harness.createProject('drafts-other');
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('drafts', () => {
  let first: Draft;

  it('are saved with their content as given, read and listed the most recently saved first', async () => {
    const created = await request('POST', '/api/v1/drafts', { name: 'Winter sale', content });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    first = created.body!.data as Draft;
    expect(first).toMatchObject({ name: 'Winter sale', content, source_notification_id: null });
    const second = (await request('POST', '/api/v1/drafts', { name: 'Spring', content: { notification: { title: 'Spring' } } })).body!.data as Draft;
    expect((await request('GET', `/api/v1/drafts/${first.id}`)).body).toMatchObject({ data: { id: first.id, content } });
    const listed = (await request('GET', '/api/v1/drafts')).body as { data: Array<Draft & { content?: unknown }>; pagination: { count: number } };
    expect(listed.data.map((draft) => draft.id)).toEqual([second.id, first.id]);
    expect(listed.data[0]!.content).toBeUndefined();
    expect(listed.pagination.count).toBe(2);
  });

  it('are replaced by PUT and come first in the list again', async () => {
    const updated = await request('PUT', `/api/v1/drafts/${first.id}`, { name: 'Winter sale v2', content: { notification: { title: 'Now 60% off' } } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ data: { id: first.id, name: 'Winter sale v2', content: { notification: { title: 'Now 60% off' } } } });
    expect(((await request('GET', '/api/v1/drafts')).body!.data as Draft[])[0]!.id).toBe(first.id);
  });

  it('are kept to their project: another project reads, replaces and deletes none (404) and lists none', async () => {
    for (const [method, body] of [['GET'], ['PUT', { name: 'x', content: {} }], ['DELETE']] as const) {
      const response = await request(method, `/api/v1/drafts/${first.id}`, body, other.api_key);
      expect(response.status, `${method} ${JSON.stringify(response.body)}`).toBe(404);
    }
    expect((await request('GET', '/api/v1/drafts', undefined, other.api_key)).body).toMatchObject({ data: [], pagination: { count: 0 } });
    expect((await harness.request('GET', '/api/v1/drafts')).status).toBe(401);
  });

  it('refuse bad input naming the field, an oversized content and a duplicate of a notification not of the project', async () => {
    const noName = await request('POST', '/api/v1/drafts', { content: {} });
    expect(noName.status).toBe(400);
    expect(JSON.stringify(noName.body)).toContain('name');
    const big = await request('POST', '/api/v1/drafts', { name: 'big', content: { notification: { body: 'x'.repeat(DRAFT_QUOTAS.contentBytes) } } });
    expect([413, 422]).toContain(big.status);
    expect(JSON.stringify(big.body)).toMatch(/content|large/i);
    const foreign = await request('POST', '/api/v1/drafts', { name: 'dup', content: {}, source_notification_id: '00000000-0000-4000-8000-000000000000' });
    expect(foreign.status).toBe(422);
    expect(JSON.stringify(foreign.body)).toContain('source_notification_id');
    expect((await request('GET', '/api/v1/drafts/not-a-uuid')).status).toBe(400);
  });

  it('record the notification a duplicate came from', async () => {
    const sent = await request('POST', '/api/v1/notifications', { notification: { title: 'Sent once', body: 'b', targets: ['nobody-topic'] } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const id = (sent.body!.data as { id: string }).id;
    // A duplicate is made from a notification's page: the read model holds it by then.
    await waitFor(`notification ${id} projected`, async () => (await request('GET', `/api/v1/notifications/${id}`)).status === 200, 60_000);
    const duplicated = await request('POST', '/api/v1/drafts', { name: 'Again', content: { notification: { title: 'Sent once' } }, source_notification_id: id });
    expect(duplicated.status, JSON.stringify(duplicated.body)).toBe(201);
    expect(duplicated.body).toMatchObject({ data: { source_notification_id: id } });
  });

  it('are deleted', async () => {
    expect((await request('DELETE', `/api/v1/drafts/${first.id}`)).status).toBe(204);
    expect((await request('GET', `/api/v1/drafts/${first.id}`)).status).toBe(404);
    expect((await request('DELETE', `/api/v1/drafts/${first.id}`)).status).toBe(404);
  });
});
