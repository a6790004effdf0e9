import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import { createTopics, startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Target expressions end to end (issue 47), over the real Kafka and store
 * with the delivery service and fake APNs: sends with AND / NOT / locale
 * reach exactly the devices this test computes from what it registered
 * (plain filters below, not libs/audience), dry runs count the same, a
 * registration acknowledged just before a send is judged in its new state,
 * explain names the clause a device failed, and devices carry a canonical
 * locale from registration and from the device-facing metadata route.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

interface Registered {
  label: string;
  country: string;
  topics: string[];
  opted_out: boolean;
  locale: string | undefined;
}

const COUNTRIES = ['US', 'FR', 'DE'];
const LOCALES = [undefined, 'en-US', 'fr', 'fr-CA', 'de'];
const devices: Registered[] = Array.from({ length: 30 }, (_, n) => ({
  label: `expr-${n}`,
  country: COUNTRIES[n % 3]!,
  topics: [...(n % 2 === 0 ? ['promotions'] : []), ...(n % 5 === 0 ? ['news'] : [])],
  opted_out: n % 4 === 0,
  locale: LOCALES[n % 5],
}));

const register = (device: Registered) =>
  harness.request('POST', '/api/v1/devices', {
    key: project.api_key,
    body: {
      project_id: project.id,
      platform: 'ios',
      token: apnsToken(device.label),
      topics: device.topics,
      metadata: { country: device.country, ...(device.opted_out ? { opted_out: 'yes' } : {}) },
      ...(device.locale === undefined ? {} : { locale: device.locale }),
    },
  });

const tokensOf = (chosen: readonly Registered[]) => chosen.map((device) => apnsToken(device.label)).sort();

async function send(targets: unknown[]): Promise<string> {
  const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Today only', targets } } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return (sent.body!.data as { id: string }).id;
}

async function reached(id: string): Promise<string[]> {
  await waitFor(`notification ${id} sent`, async () => ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string }).status === 'sent', 90_000);
  return harness.fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id: string }).notification_id === id).map((delivery) => delivery.token).sort();
}

async function dryRun(targets: unknown[]): Promise<{ status: number; body: unknown }> {
  const response = await harness.request('POST', '/api/v1/notifications/dry-run', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Today only', targets } } });
  return { status: response.status, body: response.body };
}

beforeAll(async () => {
  harness = await startApiHarness('audience-expressions', { delivery: true });
  project = await harness.createProject('audience-expressions');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['promotions', 'news']);
  for (const device of devices) expect((await register(device)).status).toBe(201);
  await waitFor('every device projected', async () => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key })).body?.pagination as { count: number }).count === devices.length);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('sends to target expressions', () => {
  const promotionsInUs = { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }] };
  const promotionsNotOptedOut = { and: [{ topic: 'promotions' }, { not: { metadata: { opted_out: { exists: true } } } }] };

  it('country AND topic reaches exactly the subscribers in that country, and the dry run counts them', async () => {
    const expected = devices.filter((device) => device.topics.includes('promotions') && device.country === 'US');
    expect(expected.length).toBeGreaterThan(0);
    expect(await dryRun([promotionsInUs])).toEqual({ status: 200, body: { data: { total: expected.length, by_platform: expect.objectContaining({ ios: expected.length }) } } });
    expect(await reached(await send([promotionsInUs]))).toEqual(tokensOf(expected));
  }, 120_000);

  it('NOT excludes the opted-out; a list stays a union of its targets', async () => {
    const expected = devices.filter((device) => device.topics.includes('promotions') && !device.opted_out);
    expect(await reached(await send([promotionsNotOptedOut]))).toEqual(tokensOf(expected));
    // French speakers (fr, fr-CA) OR the subscribers of news: an expression beside a plain target.
    const union = devices.filter((device) => device.locale?.startsWith('fr') === true || device.topics.includes('news'));
    expect((await dryRun([{ locale: 'fr' }, 'news'])).body).toMatchObject({ data: { total: union.length } });
    expect(await reached(await send([{ locale: 'fr' }, 'news']))).toEqual(tokensOf(union));
  }, 120_000);

  it('judges a registration acknowledged just before the send in its new state', async () => {
    // Moved into the audience (to the US) and out of it (opted out), each acknowledged, then the send at once.
    const moving = devices.find((device) => device.topics.includes('promotions') && device.country !== 'US')!;
    const leaving = devices.find((device) => device.topics.includes('promotions') && device.country === 'US' && !device.opted_out)!;
    moving.country = 'US';
    leaving.opted_out = true;
    expect((await register(moving)).status).toBe(201);
    expect((await register(leaving)).status).toBe(201);
    const audience = { and: [promotionsInUs, { not: { metadata: { opted_out: 'yes' } } }] };
    const expected = devices.filter((device) => device.topics.includes('promotions') && device.country === 'US' && !device.opted_out);
    expect(tokensOf(expected)).toContain(apnsToken(moving.label));
    expect(await reached(await send([audience]))).toEqual(tokensOf(expected));
  }, 120_000);

  it('explain names the clause a device failed', async () => {
    const outside = devices.find((device) => device.topics.includes('promotions') && device.country === 'FR')!;
    const id = await send([promotionsInUs]);
    await reached(id);
    const response = await harness.request('GET', `/api/v1/notifications/${id}/explain?device_id=${deviceIdFor(project.id, apnsToken(outside.label))}`, { key: project.api_key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const answer = (response.body!.data as { device: { reason: string; clauses: Array<{ clause: string; matched: boolean; detail: string }> } }).device;
    expect(answer.reason).toBe('not_matched');
    expect(answer.clauses).toEqual([{ clause: 'expression', matched: false, detail: 'expression: metadata.country is FR, not US' }]);
  }, 120_000);

  it('refuses a bad expression with 422 naming its path, at the dry run too', async () => {
    expect(await dryRun([{ and: [{ topic: 'promotions' }, { not: {} }] }])).toEqual({
      status: 422,
      body: { errors: ['notification.targets[0].and[1].not: a target has exactly one key of and, or, not, topic, device_id, token, external_id, metadata, platform, locale, timezone, segment, not none'] },
    });
  });
});

describe('device locales', () => {
  const deviceView = async (label: string) => (await harness.request('GET', `/api/v1/devices/${deviceIdFor(project.id, apnsToken(label))}`, { key: project.api_key })).body?.data as { locale: string | null } | undefined;

  it('are stored canonical at registration, and a tag that is not BCP 47 is refused naming the field', async () => {
    const created = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', token: apnsToken('locale-1'), locale: 'fr-ca' } });
    expect(created.status).toBe(201);
    expect((created.body!.data as { locale: string }).locale).toBe('fr-CA');
    const refused = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', token: apnsToken('locale-2'), locale: 'fr_CA' } });
    expect(refused).toMatchObject({ status: 400, body: { errors: ['locale "fr_CA" is not a BCP 47 language tag (e.g. fr, fr-CA)'] } });
  });

  it('change through the device-facing metadata route, and locale targets follow', async () => {
    const identifier = apnsToken('locale-1');
    const patch = (body: unknown) => harness.request('PATCH', `/api/v1/metadata?project_id=${project.id}&identifier=${identifier}`, { body });
    // The route matches devices as the read model holds them: the registration above must be projected first.
    await waitFor('the registration projected', async () => (await deviceView('locale-1'))?.locale === 'fr-CA');
    expect((await patch({ locale: 'DE-at' })).status).toBe(200);
    expect((await patch({ locale: 'not a tag' })).body).toEqual({ errors: ['locale "not a tag" is not a BCP 47 language tag (e.g. fr, fr-CA)'] });
    expect((await patch({})).status).toBe(400);
    await waitFor('the locale projected', async () => (await deviceView('locale-1'))?.locale === 'de-AT');
    const german = [...devices.filter((device) => device.locale === 'de').map((device) => apnsToken(device.label)), identifier].sort();
    expect(await reached(await send([{ locale: 'de' }]))).toEqual(german);
  }, 120_000);
});
