import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, topicIdFor, TOPICS } from '@herald/events';
import { createTopics, startApiHarness, waitFor, waitForProjectionCaughtUp, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Topics are the project's (issue 17, item 1): a device cannot create a
 * topic that shadows a device target, so a send naming a device reaches
 * only that device whatever strangers register, in whichever order (issue
 * 44: a plain target string names one kind, by its form, and no topic takes
 * a name of an id's or a token's form); the project creates, reads and
 * deletes topics with its key, may let devices create topics, reclaims
 * device-created topics nobody subscribes to, and strangers cannot use up
 * its own topic quota.
 */
let harness: ApiHarness;

type TopicRow = { id: string; name: string; subscribers: number; origin: 'project' | 'device' };
type Project = { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('topics', { delivery: true });
}, 180_000);
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0, delivery: 0 });
});

const register = (project: Project, body: Record<string, unknown>) => harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', ...body } });
const topicsOf = async (project: Project, query = '') => (await harness.request('GET', `/api/v1/topics${query}`, { key: project.api_key })).body as { data: TopicRow[]; pagination: { count: number } };
const deviceCount = async (project: Project) => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key })).body?.pagination as { count: number }).count;
const allowDeviceTopics = async (project: Project) => expect(JSON.parse(await harness.herald('projects', 'device-topics', project.id, 'on', '--json'))).toEqual({ project_id: project.id, device_topics: true });

/** Sends to `targets` and resolves with the tokens the fake APNs and FCM received it for, once the notification is sent. */
async function reached(project: Project, targets: unknown[]): Promise<string[]> {
  const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Your login code', body: '123456', targets } } });
  expect(sent.status).toBe(201);
  const id = (sent.body!.data as { id: string }).id;
  await waitFor(`notification ${id} sent`, async () => ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string }).status === 'sent', 60_000);
  const apns = harness.fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id: string }).notification_id === id).map((delivery) => delivery.token);
  const fcm = harness.fakes!.fcm.deliveries.filter((delivery) => (delivery.message.data as { notification_id?: string } | undefined)?.notification_id === id).map((delivery) => delivery.token);
  return [...apns, ...fcm].sort();
}

describe('a send naming a device reaches only that device', () => {
  it("a stranger cannot subscribe to a victim's token or device id as topics (the attack of issue 17)", async () => {
    const project = await harness.createProject('shadowing');
    await harness.fakes!.configure(project.id);
    const victimToken = apnsToken('victim-phone-token');
    const victimId = deviceIdFor(project.id, victimToken);
    expect((await register(project, { token: victimToken })).status).toBe(201);

    const attack = await register(project, { token: apnsToken('attacker-phone-1'), topics: [victimToken, victimId] });
    expect(attack.status).toBe(400);
    expect(attack.body).toEqual({ errors: [expect.stringMatching(/^topics ".+", ".+" do not exist in this project: topics are created with the API key/)] });
    await waitFor('the victim projected', async () => (await deviceCount(project)) === 1);
    expect((await topicsOf(project)).data).toEqual([]);

    expect(await reached(project, [victimToken])).toEqual([victimToken]);
    expect(await reached(project, [victimId])).toEqual([victimToken]);
  }, 120_000);

  it('a topic and a device never answer one target string: topic first, then a device whose token is its name', async () => {
    const project = await harness.createProject('topic-first');
    await harness.fakes!.configure(project.id);
    await allowDeviceTopics(project);
    // A stranger makes a topic under a word, then a device registers that word as its (FCM) token: both are allowed, and the string means the topic.
    expect((await register(project, { token: apnsToken('stranger-1'), topics: ['crowd-x'] })).status).toBe(201);
    await waitFor('the device-created topic', async () => (await topicsOf(project, '?name=crowd-x')).data[0]);
    expect((await register(project, { token: 'crowd-x', platform: 'android' })).status).toBe(201);
    await waitFor('both devices projected', async () => (await deviceCount(project)) === 2);
    expect(await reached(project, ['crowd-x'])).toEqual([apnsToken('stranger-1')]);
    expect(await reached(project, [{ token: 'crowd-x' }])).toEqual(['crowd-x']);

    // A stranger cannot make a topic of a future device's token or id: such names are refused whatever exists.
    const victimToken = apnsToken('victim-later');
    const victimFcm = 'fVictim01:APA91bH_later-token';
    const victimId = deviceIdFor(project.id, victimToken);
    for (const name of [victimToken, victimFcm, victimId, topicIdFor(project.id, 'crowd-x')]) {
      const attempt = await register(project, { token: apnsToken('stranger-2'), topics: ['fine', name] });
      expect(attempt.status, name).toBe(422);
      expect(attempt.body, name).toEqual({ errors: [expect.stringMatching(new RegExp(`^topics ${JSON.stringify(name)} cannot name a topic: it has the form of (a device token|an id)`))] });
    }
    expect((await register(project, { token: victimToken })).status).toBe(201);
    expect((await register(project, { token: victimFcm, platform: 'android' })).status).toBe(201);
    await waitFor('the victims projected', async () => (await deviceCount(project)) === 4);
    expect(await reached(project, [victimToken])).toEqual([victimToken]);
    expect(await reached(project, [victimId])).toEqual([victimToken]);
    expect(await reached(project, [victimFcm])).toEqual([victimFcm]);
  }, 180_000);

  it('a topic and a device never answer one target string: device first, then a topic of its name', async () => {
    const project = await harness.createProject('device-first');
    await harness.fakes!.configure(project.id);
    await allowDeviceTopics(project);
    const victimToken = apnsToken('victim-first');
    const victimFcm = 'fVictim02:APA91bH_first-token';
    const victimId = deviceIdFor(project.id, victimToken);
    expect((await register(project, { token: victimToken })).status).toBe(201);
    expect((await register(project, { token: victimFcm, platform: 'android' })).status).toBe(201);
    // A device whose FCM token is a word, and a stranger whose token is the victim's device id.
    expect((await register(project, { token: 'weekly', platform: 'android' })).status).toBe(201);
    expect((await register(project, { token: victimId, platform: 'android' })).status).toBe(201);
    await waitFor('four devices projected', async () => (await deviceCount(project)) === 4);

    // Neither the project nor a device makes a topic of a token's or an id's name.
    for (const name of [victimToken, victimFcm, victimId]) {
      const byProject = await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name } });
      expect(byProject.status, name).toBe(422);
      expect(byProject.body, name).toEqual({ errors: [expect.stringMatching(new RegExp(`^name ${JSON.stringify(name)} cannot name a topic: it has the form of (a device token|an id)`))] });
      expect((await register(project, { token: apnsToken('stranger-3'), topics: [name] })).status, name).toBe(422);
    }
    // A word may name a topic after a device took it as token: the string then means the topic.
    expect((await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'weekly' } })).status).toBe(201);
    expect((await register(project, { token: apnsToken('subscriber'), topics: ['weekly'] })).status).toBe(201);
    await waitFor('five devices projected', async () => (await deviceCount(project)) === 5);
    expect(await reached(project, ['weekly'])).toEqual([apnsToken('subscriber')]);
    expect(await reached(project, [{ token: 'weekly' }])).toEqual(['weekly']);
    expect(await reached(project, [victimToken])).toEqual([victimToken]);
    expect(await reached(project, [victimFcm])).toEqual([victimFcm]);
    expect(await reached(project, [victimId])).toEqual([victimToken]);
    expect(await reached(project, [{ token: victimId }])).toEqual([victimId]);
  }, 180_000);
});

describe('the project owns its topics', () => {
  it('creates (idempotently), finds, reads and deletes them; lists them with subscribers and origin; another project sees none', async () => {
    const project = await harness.createProject('topic-crud');
    const created = await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'news' } });
    expect(created).toMatchObject({ status: 201, body: { data: { id: topicIdFor(project.id, 'news'), name: 'news', subscribers: 0, origin: 'project' } } });
    expect(((await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'news' } })).body!.data as TopicRow).id).toBe(topicIdFor(project.id, 'news'));
    await createTopics(harness, project.api_key, ['sport', 'weather']);

    for (const [token, topics] of [['t1', ['news', 'sport']], ['t2', ['news']], ['t3', ['weather']]] as const) {
      expect((await register(project, { token, platform: 'android', topics })).status).toBe(201);
    }
    const listed = await waitFor('three topics with their subscribers', async () => {
      const page = await topicsOf(project);
      const counts = page.data.map((row) => row.subscribers).join(',');
      return counts === '2,1,1' ? page : undefined;
    });
    expect(listed.data.map(({ name, subscribers, origin }) => ({ name, subscribers, origin }))).toEqual([
      { name: 'news', subscribers: 2, origin: 'project' },
      { name: 'sport', subscribers: 1, origin: 'project' },
      { name: 'weather', subscribers: 1, origin: 'project' },
    ]);
    expect((await harness.request('GET', '/api/v1/topics?limit=2&page=2', { key: project.api_key })).body).toMatchObject({ data: [{ name: 'weather' }], pagination: { count: 3, page: 2, pages: 2 } });
    const newsId = topicIdFor(project.id, 'news');
    expect(await harness.request('GET', `/api/v1/topics/${newsId}`, { key: project.api_key })).toMatchObject({ status: 200, body: { data: { id: newsId, name: 'news', subscribers: 2 } } });
    expect((await topicsOf(project, '?name=nope')).data).toEqual([]);

    const other = await harness.createProject('topic-crud-other');
    expect((await topicsOf(other)).data).toEqual([]);
    expect((await harness.request('GET', `/api/v1/topics/${newsId}`, { key: other.api_key })).status).toBe(404);
    expect((await harness.request('DELETE', `/api/v1/topics/${newsId}`, { key: other.api_key })).status).toBe(404);
    expect((await harness.request('DELETE', `/api/v1/topics/${newsId}`)).status).toBe(401);

    expect((await harness.request('DELETE', `/api/v1/topics/${newsId}`, { key: project.api_key })).status).toBe(204);
    await waitFor('the topic deleted', async () => (await harness.request('GET', `/api/v1/topics/${newsId}`, { key: project.api_key })).status === 404);
    expect((await topicsOf(project)).data.map((row) => row.name)).toEqual(['sport', 'weather']);
    // Deleted: no registration subscribes to it any more (devices may not create topics here).
    expect(await register(project, { token: apnsToken('t4'), topics: ['news'] })).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('topics "news" does not exist in this project')] } });
  });

  it('reclaims device-created topics nobody subscribes to, never its own; a project topic adopted from devices stays', async () => {
    const project = await harness.createProject('reclaim');
    await allowDeviceTopics(project);
    await createTopics(harness, project.api_key, ['own-empty']);
    expect((await register(project, { token: apnsToken('d1'), topics: ['left-behind', 'kept', 'adopted'] })).status).toBe(201);
    expect((await register(project, { token: apnsToken('d2'), topics: ['kept'] })).status).toBe(201);
    await waitFor('the device-created topics', async () => (await topicsOf(project)).pagination.count === 4);
    // d1 leaves its topics; the project adopts one of them by creating it.
    expect((await register(project, { token: apnsToken('d1'), topics: [] })).status).toBe(201);
    expect((await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'adopted' } })).body).toMatchObject({ data: { origin: 'project' } });
    // Subscribers are the devices projection's counters, origins the topics projection's: `left-behind` has none
    // before d1 is projected as well as after it left, and `kept` none until d2 is. Both catch up, then the state is checked.
    await Promise.all([
      waitForProjectionCaughtUp(harness.env.kafka, 'devices', TOPICS.deviceEvents),
      waitForProjectionCaughtUp(harness.env.kafka, 'topics', TOPICS.topicEvents),
    ]);
    const rows = (await topicsOf(project)).data.map(({ name, subscribers, origin }) => ({ name, subscribers, origin }));
    expect(rows.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'adopted', subscribers: 0, origin: 'project' },
      { name: 'kept', subscribers: 1, origin: 'device' },
      { name: 'left-behind', subscribers: 0, origin: 'device' },
      { name: 'own-empty', subscribers: 0, origin: 'project' },
    ]);

    const reclaimed = await harness.request('POST', '/api/v1/topics/reclaim', { key: project.api_key });
    expect(reclaimed).toEqual({ status: 200, body: { data: { deleted: 1, names: ['left-behind'] } } });
    await waitFor('the reclaimed topic gone', async () => (await topicsOf(project)).pagination.count === 3);
    expect((await topicsOf(project)).data.map((row) => row.name).sort()).toEqual(['adopted', 'kept', 'own-empty']);
  });

  it("strangers cannot use up the project's topic quota: device-created topics count apart", async () => {
    const project = await harness.createProject('topic-quota');
    await allowDeviceTopics(project);
    // What a stranger leaves after filling the device-created quota (1,000), written as events to keep the test short.
    const names = Array.from({ length: 1_000 }, (_, i) => `spam-${i}`);
    await harness.env.producer.publish(names.map((name) => createEvent('TopicCreated', { topic_id: topicIdFor(project.id, name), name, origin: 'device' }, { project_id: project.id })));
    await waitFor('1,000 device-created topics projected', async () => (await topicsOf(project, '?limit=1')).pagination.count === 1_000, 60_000);

    expect(await register(project, { token: apnsToken('stranger'), topics: ['spam-1000'] })).toEqual({
      status: 400,
      body: { errors: ['topics would create 1 new device-created topics in a project that has 1000; a project has at most 1000 device-created topics (POST /api/v1/topics/reclaim deletes those nobody subscribes to)'] },
    });
    // The project's own room is untouched, and subscribing to existing topics stays allowed.
    expect((await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'breaking-news' } })).status).toBe(201);
    expect((await register(project, { token: apnsToken('reader'), topics: ['spam-1'] })).status).toBe(201);
    // Nobody subscribes to 999 of them: the project reclaims them.
    await waitFor('the reader projected', async () => (await deviceCount(project)) === 1);
    expect((await harness.request('POST', '/api/v1/topics/reclaim', { key: project.api_key })).body).toMatchObject({ data: { deleted: 999 } });
    await waitFor('the room back', async () => (await register(project, { token: apnsToken('stranger'), topics: ['spam-1000'] })).status === 201, 60_000);
  }, 180_000);
});
