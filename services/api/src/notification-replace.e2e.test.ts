import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopics, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Editing or rescheduling a scheduled send (issue 49, item 1) over the real
 * Kafka and store: the edit is a new notification that `replaces` the old,
 * published with the old one's cancel; a bad edit leaves the old scheduled;
 * only a scheduled send can be edited, and only by its project.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };

type View = { id: string; status: string; title: string; replaces?: string; replaced_by?: string; request: { send_at?: string } };
const request = (method: 'GET' | 'POST', path: string, body?: unknown, key = project.api_key) => harness.request(method, path, { key, ...(body === undefined ? {} : { body }) });
const read = async (id: string) => (await request('GET', `/api/v1/notifications/${id}`)).body!.data as View;
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

beforeAll(async () => {
  harness = await startApiHarness('notification-replace');
  project = await harness.createProject('notification-replace');
  other = await harness.createProject('notification-replace-other');
  await createTopics(harness, project.api_key, ['news']);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('editing a scheduled send', () => {
  it('replaces it with a new notification that names it, the old one cancelled; never twice, never after it fired', async () => {
    const scheduled = await request('POST', '/api/v1/notifications', { notification: { title: 'Sale at nine', body: 'b', targets: ['news'], send_at: inHours(1) } });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
    const old = (scheduled.body!.data as View).id;

    const badEdit = await request('POST', `/api/v1/notifications/${old}/replace`, { notification: { title: 'x', body: 'b', targets: ['news'], badge: -1, send_at: inHours(2) } });
    expect(badEdit.status).toBe(422);
    expect(JSON.stringify(badEdit.body)).toContain('badge');
    expect((await read(old)).status).toBe('scheduled');

    const later = inHours(2);
    const edited = await request('POST', `/api/v1/notifications/${old}/replace`, { notification: { title: 'Sale at ten', body: 'b', targets: ['news'], send_at: later } }, undefined);
    expect(edited.status, JSON.stringify(edited.body)).toBe(201);
    const replacement = edited.body!.data as View;
    expect(replacement).toMatchObject({ status: 'scheduled', title: 'Sale at ten', replaces: old });
    expect(replacement.id).not.toBe(old);
    await waitFor('the old send cancelled in the read model', async () => (await read(old)).status === 'cancelled', 60_000);
    await waitFor('the replacement projected with what it replaces', async () => (await read(replacement.id)).replaces === old, 60_000);
    expect((await read(replacement.id)).request.send_at).toBe(later);
    // The reverse link: the replaced send names its replacement (read from the replacement's `replaces`).
    expect((await read(old)).replaced_by).toBe(replacement.id);
    expect((await read(replacement.id)).replaced_by).toBeUndefined();

    const again = await request('POST', `/api/v1/notifications/${old}/replace`, { notification: { title: 'Again', body: 'b', targets: ['news'], send_at: inHours(3) } });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('only a notification still scheduled');
  });

  it('is its project’s only, and not for a send that is not scheduled', async () => {
    const scheduled = (await request('POST', '/api/v1/notifications', { notification: { title: 'Mine', body: 'b', targets: ['news'], send_at: inHours(1) } })).body!.data as View;
    const foreign = await request('POST', `/api/v1/notifications/${scheduled.id}/replace`, { notification: { title: 'Theirs', body: 'b', targets: ['news'] } }, other.api_key);
    expect(foreign.status).toBe(404);
    const now = (await request('POST', '/api/v1/notifications', { notification: { title: 'Now', body: 'b', targets: ['news'] } })).body!.data as View;
    const late = await request('POST', `/api/v1/notifications/${now.id}/replace`, { notification: { title: 'Edited', body: 'b', targets: ['news'] } });
    expect(late.status).toBe(409);
  });
});
