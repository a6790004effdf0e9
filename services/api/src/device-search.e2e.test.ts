import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsToken, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Finding devices by a metadata pair (issue 49, item 5) or a platform (issue
 * 46) on the devices listing, with its other filters; kept to the project;
 * bad input named.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };

const list = async (query: string, key = project.api_key) => harness.request('GET', `/api/v1/devices?${query}`, { key });
const tokens = (body: unknown) => (body as { data: Array<{ token: string }> }).data.map((device) => device.token).sort();

beforeAll(async () => {
  harness = await startApiHarness('device-search');
  project = await harness.createProject('device-search');
  other = await harness.createProject('device-search-other');
  const devices = [
    { token: 'search-android-fr', metadata: { country: 'FR', 'plan tier': 'gold' } },
    { token: 'search-android-us', metadata: { country: 'US' } },
    { token: 'search-android-fr-2', metadata: { country: 'FR' } },
  ];
  for (const device of devices) expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'android', ...device } })).status).toBe(201);
  expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: other.id, platform: 'android', token: 'search-other-fr', metadata: { country: 'FR' } } })).status).toBe(201);
  await waitFor('devices projected', async () => ((await list('limit=1')).body?.pagination as { count: number }).count === devices.length);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('device search by metadata', () => {
  it('finds the devices with a metadata pair, counted, with the other filters, in the project only', async () => {
    const fr = await list('metadata_key=country&metadata_value=FR');
    expect(fr.status, JSON.stringify(fr.body)).toBe(200);
    expect(tokens(fr.body)).toEqual(['search-android-fr', 'search-android-fr-2']);
    expect((fr.body as { pagination: { count: number } }).pagination.count).toBe(2);
    expect(tokens((await list(`metadata_key=${encodeURIComponent('plan tier')}&metadata_value=gold`)).body)).toEqual(['search-android-fr']);
    expect(tokens((await list('metadata_key=country&metadata_value=fr')).body)).toEqual([]);
    expect(tokens((await list('metadata_key=country&metadata_value=FR&status=inactive')).body)).toEqual([]);
    expect(tokens((await list('metadata_key=country&metadata_value=FR', other.api_key)).body)).toEqual(['search-other-fr']);
  });

  it('names bad input: a key a document field cannot be, a key without a value', async () => {
    for (const query of ['metadata_key=a.b&metadata_value=x', 'metadata_key=%24where&metadata_value=x']) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(JSON.stringify(response.body)).toContain('metadata_key');
    }
    const alone = await list('metadata_key=country');
    expect(alone.status).toBe(400);
    expect(JSON.stringify(alone.body)).toContain('metadata_value');
  });

  it('lists the devices of one platform, counted from the counters, with the other filters', async () => {
    const ios = apnsToken('search-ios');
    expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', token: ios, metadata: { country: 'FR' } } })).status).toBe(201);
    await waitFor('the iOS device projected', async () => ((await list('limit=1')).body?.pagination as { count: number }).count === 4 || undefined);
    const onlyIos = await list('platform=ios');
    expect(onlyIos.status, JSON.stringify(onlyIos.body)).toBe(200);
    expect(tokens(onlyIos.body)).toEqual([ios]);
    expect((onlyIos.body as { pagination: { count: number } }).pagination.count).toBe(1);
    const android = await list('platform=android');
    expect(tokens(android.body)).toHaveLength(3);
    expect((android.body as { pagination: { count: number } }).pagination.count).toBe(3);
    expect(tokens((await list('platform=android&metadata_key=country&metadata_value=FR')).body)).toEqual(['search-android-fr', 'search-android-fr-2']);
    expect(await list('platform=web')).toMatchObject({ status: 200, body: { data: [], pagination: { count: 0 } } });
    expect(tokens((await list('platform=ios', other.api_key)).body)).toEqual([]);
    const bad = await list('platform=windows');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('platform');
  });
});
