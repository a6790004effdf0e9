import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopics, startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';
import { PLATFORMS } from '@herald/events';

let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('notifications');
  [project, other] = await Promise.all([harness.createProject('notifications'), harness.createProject('other')]);
  await createTopics(harness, project.api_key, ['news']);
  await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: apnsToken('news-reader'), platform: 'ios', topics: ['news'] } });
  await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: 'pro-user', platform: 'android', metadata: { plan: 'pro' } } });
  await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: 'bystander', platform: 'android' } });
  await waitFor('three devices projected', async () => ((await harness.request('GET', '/api/v1/devices', { key: project.api_key })).body?.pagination as { count: number }).count === 3);
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

const send = (notification: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  harness.request('POST', '/api/v1/notifications', { key: options.key ?? project.api_key, body: { notification }, ...(options.headers ? { headers: options.headers } : {}) });
const get = (id: string, key = project.api_key) => harness.request('GET', `/api/v1/notifications/${id}`, { key });

describe('POST /api/v1/notifications', () => {
  it('accepts a notification and answers with its id and status', async () => {
    const response = await send({ title: 'Hi', body: 'There', targets: ['news', { metadata: { plan: 'pro' } }], link_to: 'app://x', group: 'g' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Hi',
        body: 'There',
        targets: ['news', { metadata: { plan: 'pro' } }],
        link_to: 'app://x',
        group: 'g',
        status: 'queued',
        // Decided by size per partition: the send set no priority_lane.
        priority_lane: null,
        created_at: expect.any(String),
        request: { title: 'Hi', body: 'There', targets: ['news', { metadata: { plan: 'pro' } }], link_to: 'app://x', group: 'g' },
      },
    });
    const id = (response.body!.data as { id: string }).id;
    const stored = await waitFor('the notification projected', async () => ((await get(id)).status === 200 ? get(id) : undefined));
    expect(stored.body).toMatchObject({ data: { id, status: 'queued', counts: { targeted: 0, sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, opened: 0 }, dispatched_at: null, finished_at: null } });
  });

  it('lists every problem at once with 422', async () => {
    const response = await send({ title: 5, targets: [], link_to: 7, group: false });
    expect(response.status).toBe(422);
    expect((response.body as { errors: string[] }).errors.sort()).toEqual(
      [
        'notification.title must be a string',
        'notification.title and notification.body are required unless notification.template is given',
        'notification.targets must contain at least 1 item',
        'notification.link_to must be a string',
        'notification.group must be a string',
      ].sort(),
    );
  });

  it.each([
    ['a missing notification', {}, 'notification is required'],
    ['a target that is neither string nor metadata filter', { notification: { title: 't', body: 'b', targets: [5] } }, 'notification.targets[0] does not match any allowed form'],
    ['an empty target string', { notification: { title: 't', body: 'b', targets: [''] } }, 'notification.targets[0] does not match any allowed form'],
    [
      'a metadata filter with a non-string value',
      { notification: { title: 't', body: 'b', targets: [{ metadata: { plan: 1 } }] } },
      'notification.targets[0].metadata."plan": must be a string (equality) or one of {"in": [...]}, {"exists": true|false}, {"ne": "..."}',
    ],
    [
      'a target object with more than metadata',
      { notification: { title: 't', body: 'b', targets: [{ metadata: { a: 'b' }, extra: 1 }] } },
      'notification.targets[0]: unknown key "extra" (a target has one of and, or, not, topic, device_id, token, external_id, metadata, platform, locale, timezone, segment)',
    ],
    ['an empty and', { notification: { title: 't', body: 'b', targets: [{ and: [] }] } }, 'notification.targets[0].and: must hold at least one target'],
    ['a not of nothing, deep inside', { notification: { title: 't', body: 'b', targets: ['news', { or: [{ topic: 'a' }, { and: [{ topic: 'b' }, { not: null }] }] }] } }, 'notification.targets[1].or[1].and[1].not: must hold a target, not nothing'],
    ['an unknown leaf', { notification: { title: 't', body: 'b', targets: [{ not: { country: 'US' } }] } }, 'notification.targets[0].not: unknown key "country" (a target has one of and, or, not, topic, device_id, token, external_id, metadata, platform, locale, timezone, segment)'],
    ['a platform Herald does not know', { notification: { title: 't', body: 'b', targets: [{ and: [{ platform: 'symbian' }] }] } }, `notification.targets[0].and[0].platform: "symbian" is not a platform (${PLATFORMS.join(', ')})`],
    ['an expression nested too deep', { notification: { title: 't', body: 'b', targets: [JSON.parse(`${'{"not":'.repeat(9)}"news"${'}'.repeat(9)}`)] } }, `notification.targets[0]${'.not'.repeat(9)}: nested deeper than 8 operators`],
    ['more than 10,000 targets', { notification: { title: 't', body: 'b', targets: Array.from({ length: 10_001 }, (_, i) => `t${i}`) } }, 'notification.targets must contain at most 10000 items'],
  ])('422 for %s', async (_label, body, message) => {
    const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ errors: [message] });
  });

  it('422 for a payload over the providers’ 4 KB, together with schema problems', async () => {
    const response = await send({ title: 't', body: 'x'.repeat(4000), targets: [] });
    expect(response.status).toBe(422);
    expect((response.body as { errors: string[] }).errors).toEqual([
      'notification.targets must contain at least 1 item',
      expect.stringMatching(/^notification must fit in 4096 bytes as an APNs payload \(it takes \d+\)$/),
      expect.stringMatching(/^notification must fit in 4096 bytes as an FCM message \(it takes \d+\)$/),
      expect.stringMatching(/^notification must fit in 3993 bytes as a Web Push plaintext/),
      expect.stringMatching(/^notification must fit in 4096 bytes as a Push Kit message/),
    ]);
  });

  it('returns the first notification for a repeated Idempotency-Key and queues nothing new', async () => {
    const headers = { 'idempotency-key': 'campaign-42' };
    const notification = { title: 'Once', body: 'Only once', targets: ['news'] };
    const [first, second] = await Promise.all([send(notification, { headers }), send(notification, { headers })].map((p) => p.catch(() => undefined)));
    const statuses = [first?.status, second?.status].sort();
    // Two concurrent repeats: one wins; the other waits for it or is told it is in progress.
    expect(statuses.includes(201)).toBe(true);
    const winner = (first?.status === 201 ? first : second)!;
    const id = (winner.body!.data as { id: string }).id;
    const third = await send(notification, { headers });
    expect(third).toEqual({ status: 201, body: winner.body });
    expect((await send({ ...notification, body: 'changed' }, { headers })).status).toBe(409);
    // The same key in another project is another key.
    expect((await send(notification, { key: other.api_key, headers })).body?.data).not.toEqual(winner.body!.data);
    await waitFor('the notification projected', async () => (await get(id)).status === 200);
  });

  it('401 without a valid key', async () => {
    expect((await send({ title: 't', body: 'b', targets: ['x'] }, { key: 'nope' })).status).toBe(401);
  });
});

describe('GET /api/v1/notifications/{id}', () => {
  it('404 for another project and 400 for a malformed id', async () => {
    const sent = await send({ title: 'Mine', body: 'b', targets: ['news'] });
    const id = (sent.body!.data as { id: string }).id;
    await waitFor('projected', async () => (await get(id)).status === 200);
    expect((await get(id, other.api_key)).status).toBe(404);
    expect((await get('not-a-uuid')).status).toBe(400);
  });
});
