import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopics, startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Saved segments (issue 47, item 4) over the real Kafka and store with the
 * delivery service: saved with versions, counted in the dry run's shape,
 * nested without cycles, used by sends that pin the version they used (a
 * later edit never changes what a sent notification meant), refused with
 * 422 naming the path, and kept to their project.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };

const COUNTRIES = ['US', 'FR'];
const devices = Array.from({ length: 16 }, (_, n) => ({ label: `seg-${n}`, country: COUNTRIES[n % 2]!, promotions: n % 3 !== 0 }));
const tokensWhere = (keep: (device: (typeof devices)[number]) => boolean) => devices.filter(keep).map((device) => apnsToken(device.label)).sort();

type SegmentView = { id: string; name: string; version: number; filter: unknown };
const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, key = project.api_key) => harness.request(method, path, { key, ...(body === undefined ? {} : { body }) });
const save = async (name: string, filter: unknown) => {
  const response = await request('POST', '/api/v1/segments', { name, filter });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body!.data as SegmentView;
};

async function send(targets: unknown[]): Promise<{ id: string; tokens: string[] }> {
  const sent = await request('POST', '/api/v1/notifications', { notification: { title: 'Sale', body: 'Today only', targets } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const id = (sent.body!.data as { id: string }).id;
  await waitFor(`notification ${id} sent`, async () => ((await request('GET', `/api/v1/notifications/${id}`)).body?.data as { status: string }).status === 'sent', 90_000);
  const tokens = harness.fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id: string }).notification_id === id).map((delivery) => delivery.token);
  return { id, tokens: tokens.sort() };
}

beforeAll(async () => {
  harness = await startApiHarness('segments', { delivery: true });
  project = await harness.createProject('segments');
  other = await harness.createProject('segments-other');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['promotions']);
  for (const device of devices) {
    const body = { project_id: project.id, platform: 'ios', token: apnsToken(device.label), metadata: { country: device.country }, topics: device.promotions ? ['promotions'] : [] };
    expect((await harness.request('POST', '/api/v1/devices', { body })).status).toBe(201);
  }
  await waitFor('every device projected', async () => ((await request('GET', '/api/v1/devices?limit=1')).body?.pagination as { count: number }).count === devices.length);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('saved segments', () => {
  let usPromos: SegmentView;
  let firstSend: string;

  it('are saved, read, listed and counted in the dry run shape', async () => {
    usPromos = await save('us-promos', { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }] });
    expect(usPromos).toMatchObject({ name: 'us-promos', version: 1, filter: { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }] } });
    expect((await request('GET', `/api/v1/segments/${usPromos.id}`)).body).toMatchObject({ data: { id: usPromos.id, version: 1 } });
    expect((await request('GET', '/api/v1/segments')).body).toMatchObject({ data: [{ id: usPromos.id, name: 'us-promos', latest_version: 1 }], pagination: { count: 1 } });
    const expected = tokensWhere((device) => device.promotions && device.country === 'US').length;
    expect((await request('GET', `/api/v1/segments/${usPromos.id}/count`)).body).toEqual({ data: { total: expected, by_platform: expect.objectContaining({ ios: expected }) } });
  });

  it('reach exactly their devices when a send names them, and the notification shows the version it used', async () => {
    const sent = await send([{ segment: 'us-promos' }]);
    firstSend = sent.id;
    expect(sent.tokens).toEqual(tokensWhere((device) => device.promotions && device.country === 'US'));
    const shown = (await request('GET', `/api/v1/notifications/${sent.id}`)).body!.data as { request: { segments?: Array<{ id: string; name: string; version: number }> } };
    expect(shown.request.segments).toEqual([{ id: usPromos.id, name: 'us-promos', version: 1, filter: usPromos.filter }]);
  }, 120_000);

  it('a new version changes later sends only; old versions stay readable', async () => {
    const edited = await request('PUT', `/api/v1/segments/${usPromos.id}`, { filter: { and: [{ topic: 'promotions' }, { metadata: { country: 'FR' } }] } });
    expect(edited.body).toMatchObject({ data: { version: 2 } });
    expect((await request('GET', `/api/v1/segments/${usPromos.id}/versions/1`)).body).toMatchObject({ data: { version: 1, filter: { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }] } } });
    const sent = await send([{ segment: usPromos.id }]);
    expect(sent.tokens).toEqual(tokensWhere((device) => device.promotions && device.country === 'FR'));
    const first = (await request('GET', `/api/v1/notifications/${firstSend}`)).body!.data as { request: { segments: Array<{ version: number }> } };
    expect(first.request.segments.map((segment) => segment.version)).toEqual([1]);
  }, 120_000);

  it('nest, pinned together, and never in a cycle (422)', async () => {
    const nested = await save('us-promos-not-fr', { and: [{ segment: 'us-promos' }, { not: { metadata: { country: 'US' } } }] });
    const sent = await send([{ segment: 'us-promos-not-fr' }]);
    expect(sent.tokens).toEqual(tokensWhere((device) => device.promotions && device.country === 'FR'));
    const shown = (await request('GET', `/api/v1/notifications/${sent.id}`)).body!.data as { request: { segments: Array<{ name: string; version: number }> } };
    expect(shown.request.segments.map((segment) => [segment.name, segment.version])).toEqual([
      ['us-promos-not-fr', 1],
      ['us-promos', 2],
    ]);
    const cycle = await request('PUT', `/api/v1/segments/${usPromos.id}`, { filter: { or: [{ topic: 'promotions' }, { segment: nested.id }] } });
    expect(cycle).toMatchObject({ status: 422, body: { errors: ['filter.or[1].segment→"us-promos-not-fr".and[0].segment: segment "us-promos" would reference itself ("us-promos" → "us-promos-not-fr" → "us-promos"): segments may not form a cycle'] } });
    expect((await request('POST', '/api/v1/segments', { name: 'loop', filter: { not: { segment: 'loop' } } })).status).toBe(422);
  }, 120_000);

  it('refuses a bad filter or an unknown segment with 422 naming the path, and a repeated name with 409', async () => {
    expect(await request('POST', '/api/v1/segments', { name: 'bad', filter: { and: [{ topic: 'promotions' }, { not: null }] } })).toMatchObject({ status: 422, body: { errors: ['filter.and[1].not: must hold a target, not nothing'] } });
    expect(await request('POST', '/api/v1/segments', { name: 'bad', filter: { segment: 'nope' } })).toMatchObject({ status: 422, body: { errors: ['filter.segment: "nope" is not a segment of this project'] } });
    expect((await request('POST', '/api/v1/segments', { name: 'us-promos', filter: 'promotions' })).status).toBe(409);
    const send422 = await request('POST', '/api/v1/notifications', { notification: { title: 't', body: 'b', targets: ['promotions', { and: [{ segment: 'nope' }] }] } });
    expect(send422).toMatchObject({ status: 422, body: { errors: ['notification.targets[1].and[0].segment: "nope" is not a segment of this project'] } });
  });

  it("are the project's own: another project neither reads nor uses them", async () => {
    expect((await request('GET', `/api/v1/segments/${usPromos.id}`, undefined, other.api_key)).status).toBe(404);
    expect((await request('GET', `/api/v1/segments/${usPromos.id}/count`, undefined, other.api_key)).status).toBe(404);
    expect((await request('DELETE', `/api/v1/segments/${usPromos.id}`, undefined, other.api_key)).status).toBe(404);
    const foreign = await request('POST', '/api/v1/notifications/dry-run', { notification: { title: 't', body: 'b', targets: [{ segment: usPromos.id }] } }, other.api_key);
    expect(foreign.status).toBe(422);
  });

  it('deleted, no longer usable by new sends', async () => {
    const plain = await save('to-delete', 'promotions');
    expect((await request('DELETE', `/api/v1/segments/${plain.id}`)).status).toBe(204);
    expect((await request('DELETE', `/api/v1/segments/${plain.id}`)).status).toBe(404);
    expect((await request('POST', '/api/v1/notifications/dry-run', { notification: { title: 't', body: 'b', targets: [{ segment: 'to-delete' }] } })).body).toEqual({
      errors: ['notification.targets[0].segment: "to-delete" is not a segment of this project'],
    });
  });
});
