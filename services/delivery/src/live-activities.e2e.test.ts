import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsToken, apnsTokenPrefix, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Live Activity pushes end to end (docs/guides/live-activities.md): an iOS
 * device with a push-to-start and an update token, POST /api/v1/live-activities
 * over the real Kafka and store, the delivery apns role sending to the fake
 * APNs (which checks them as a device would), GET answering the outcomes.
 * The per-activity rate is 4 s here, so quick updates are coalesced whatever
 * the machine's load; ended activities are swept every half second.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
const apns = () => harness.fakes!.apns;
const BUNDLE = 'com.example.herald';

interface Sent {
  id: string;
  status: string;
  timestamp: number;
  outcomes: Array<{ device_id: string; token_id: string; outcome: string; reason?: string }>;
  counts: { delivered: number; invalid: number; failed: number; coalesced: number };
  coalesced_into: string | null;
}

beforeAll(async () => {
  harness = await startApiHarness('live-activities', {
    delivery: true,
    deliveryEnv: { LIVE_ACTIVITY_UPDATE_INTERVAL_MS: '4000', LIVE_ACTIVITY_SWEEP_MS: '500' },
    apnsRules: [
      { prefix: apnsTokenPrefix('la-dead'), status: 410, reason: 'Unregistered', timestamp: Date.now() + 60_000 },
      { prefix: apnsTokenPrefix('la-busy'), status: 429, reason: 'TooManyRequests', times: 2 },
    ],
  });
  project = await harness.createProject('live-activities');
  await harness.fakes!.configure(project.id);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

async function iosDevice(label: string, externalId?: string, more: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const body = { project_id: project.id, token: apnsToken(label), platform: 'ios', ...(externalId === undefined ? {} : { external_id: externalId }), ...more };
  const response = await harness.request('POST', '/api/v1/devices', { body, key: externalId === undefined && Object.keys(more).length === 0 ? undefined : project.api_key });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const device = response.body!.data as { id: string; token: string };
  await waitFor(`device ${label} projected`, async () => ((await harness.request('GET', `/api/v1/devices/${device.id}`, { key: project.api_key })).status === 200 ? true : undefined));
  return device;
}

const attach = (deviceId: string, body: Record<string, unknown>, key?: string) => harness.request('POST', `/api/v1/devices/${deviceId}/live-activity-tokens`, { body, key });
const send = (body: Record<string, unknown>) => harness.request('POST', '/api/v1/live-activities', { key: project.api_key, body });

async function accepted(body: Record<string, unknown>): Promise<Sent> {
  const response = await send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body!.data as Sent;
}

/** The push once the sender is done with it: sent, or coalesced. */
function settled(id: string): Promise<Sent> {
  return waitFor(`live activity push ${id} reported`, async () => {
    const response = await harness.request('GET', `/api/v1/live-activities/${id}`, { key: project.api_key });
    const sent = response.body?.data as Sent | undefined;
    return sent !== undefined && sent.status !== 'accepted' ? sent : undefined;
  }, 90_000);
}

async function reported(id: string): Promise<Sent> {
  const sent = await settled(id);
  expect(sent.status).toBe('sent');
  return sent;
}

const tokenKinds = async (deviceId: string) =>
  ((await harness.request('GET', `/api/v1/devices/${deviceId}/live-activity-tokens`, { key: project.api_key })).body!.data as Array<{ kind: string }>).map((token) => token.kind);

const pushesTo = (token: string) => apns().deliveries.filter((delivery) => delivery.token === token);

describe('Live Activity pushes', () => {
  it('starts an activity on the push-to-start token, then two updates reach its update token with rising timestamps', async () => {
    const device = await iosDevice('la-phone');
    const ptsToken = apnsToken('la-pts');
    const updateToken = apnsToken('la-upd');
    expect(await attach(device.id, { kind: 'push_to_start', token: ptsToken, attributes_type: 'DeliveryAttributes', device_token: device.token })).toMatchObject({ status: 201 });

    const start = await accepted({
      event: 'start',
      targets: [{ device_id: device.id }],
      attributes_type: 'DeliveryAttributes',
      attributes: { order: '42' },
      content_state: { eta: 10 },
      alert: { title: 'Order 42', body: 'On its way' },
    });
    const started = await reported(start.id);
    expect(started.outcomes).toEqual([{ device_id: device.id, token_id: expect.any(String), outcome: 'delivered' }]);
    const [startPush] = pushesTo(ptsToken);
    expect(startPush?.headers).toMatchObject({ 'apns-push-type': 'liveactivity', 'apns-topic': `${BUNDLE}.push-type.liveactivity`, 'apns-priority': '10' });
    expect(startPush?.payload).toEqual({
      aps: { timestamp: start.timestamp, event: 'start', 'content-state': { eta: 10 }, 'attributes-type': 'DeliveryAttributes', attributes: { order: '42' }, alert: { title: 'Order 42', body: 'On its way' } },
    });

    // The app reports the started activity's update token.
    expect(await attach(device.id, { kind: 'update', token: updateToken, activity_id: 'la-act-1', device_token: device.token })).toMatchObject({ status: 201 });
    // Each update once the one before was sent: the second waits out the rate, then goes (none coalesced).
    const first = await accepted({ event: 'update', activity_id: 'la-act-1', content_state: { eta: 5 }, priority: 5 });
    expect((await reported(first.id)).outcomes).toMatchObject([{ device_id: device.id, outcome: 'delivered' }]);
    const second = await accepted({ event: 'update', activity_id: 'la-act-1', content_state: { eta: 2 }, stale_date: 2_000_000_000 });
    expect(second.timestamp).toBeGreaterThan(first.timestamp);
    expect(await reported(second.id)).toMatchObject({ outcomes: [{ device_id: device.id, outcome: 'delivered' }], counts: { delivered: 1, invalid: 0, failed: 0, coalesced: 0 }, coalesced_into: null });
    const updates = pushesTo(updateToken);
    expect(updates.map((push) => (push.payload as { aps: { timestamp: number; 'content-state': unknown } }).aps)).toEqual([
      { timestamp: first.timestamp, event: 'update', 'content-state': { eta: 5 } },
      { timestamp: second.timestamp, event: 'update', 'content-state': { eta: 2 }, 'stale-date': 2_000_000_000 },
    ]);
    expect(updates[0]?.headers).toMatchObject({ 'apns-push-type': 'liveactivity', 'apns-topic': `${BUNDLE}.push-type.liveactivity`, 'apns-priority': '5' });

    // An end without a dismissal date removes the activity's update token once sent.
    const end = await accepted({ event: 'end', activity_id: 'la-act-1', content_state: { eta: 0 } });
    expect((await reported(end.id)).outcomes).toMatchObject([{ outcome: 'delivered' }]);
    expect((pushesTo(updateToken).at(-1)?.payload as { aps: { event: string } }).aps.event).toBe('end');
    expect(await tokenKinds(device.id)).toEqual(['push_to_start']);
  });

  it('starts on the devices a topic and a metadata expression name, and no other', async () => {
    expect(await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'la-fans' } })).toMatchObject({ status: 201 });
    await waitFor('topic la-fans listed', async () => ((await harness.request('GET', '/api/v1/topics', { key: project.api_key })).body?.data as Array<{ name: string }> | undefined)?.some((topic) => topic.name === 'la-fans') || undefined);
    const fan = await iosDevice('la-fan', undefined, { topics: ['la-fans'] });
    const blue = await iosDevice('la-blue', undefined, { metadata: { team: 'blue' } });
    const red = await iosDevice('la-red', undefined, { metadata: { team: 'red' } });
    for (const [device, label] of [[fan, 'la-fan-pts'], [blue, 'la-blue-pts'], [red, 'la-red-pts']] as const) {
      expect(await attach(device.id, { kind: 'push_to_start', token: apnsToken(label), attributes_type: 'MatchAttributes' }, project.api_key)).toMatchObject({ status: 201 });
    }
    const start = await accepted({
      event: 'start',
      targets: [{ topic: 'la-fans' }, { and: [{ platform: 'ios' }, { metadata: { team: 'blue' } }] }],
      attributes_type: 'MatchAttributes',
      attributes: {},
      content_state: { score: '0-0' },
      alert: { title: 'Kick-off', body: '0 - 0' },
    });
    const outcomes = (await reported(start.id)).outcomes;
    expect(outcomes.map((row) => row.device_id).sort()).toEqual([fan.id, blue.id].sort());
    expect(outcomes.every((row) => row.outcome === 'delivered')).toBe(true);
  });

  it('coalesces an update followed within the rate by a newer one: only the newer content state is sent', async () => {
    const device = await iosDevice('la-burst-phone');
    const token = apnsToken('la-burst-upd');
    await attach(device.id, { kind: 'update', token, activity_id: 'la-burst' }, project.api_key);
    const first = await accepted({ event: 'update', activity_id: 'la-burst', content_state: { n: 1 } });
    expect((await reported(first.id)).counts).toEqual({ delivered: 1, invalid: 0, failed: 0, coalesced: 0 });
    // Two more within the 4 s interval: the middle one never reaches the device.
    const middle = await accepted({ event: 'update', activity_id: 'la-burst', content_state: { n: 2 } });
    const last = await accepted({ event: 'update', activity_id: 'la-burst', content_state: { n: 3 } });
    expect(await settled(middle.id)).toMatchObject({ status: 'coalesced', coalesced_into: last.id, outcomes: [], counts: { delivered: 0, invalid: 0, failed: 0, coalesced: 1 } });
    expect((await reported(last.id)).counts).toEqual({ delivered: 1, invalid: 0, failed: 0, coalesced: 0 });
    expect(pushesTo(token).map((push) => (push.payload as { aps: { 'content-state': unknown } }).aps['content-state'])).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('keeps an ended activity\'s update tokens until its future dismissal date, then removes them, across a restart of delivery', async () => {
    const device = await iosDevice('la-dismiss-phone');
    await attach(device.id, { kind: 'update', token: apnsToken('la-dismiss-upd'), activity_id: 'la-dismiss' }, project.api_key);
    const dismissal = Math.ceil(Date.now() / 1000) + 20;
    const end = await accepted({ event: 'end', activity_id: 'la-dismiss', content_state: { eta: 0 }, dismissal_date: dismissal });
    expect((await reported(end.id)).outcomes).toMatchObject([{ outcome: 'delivered' }]);
    expect(await tokenKinds(device.id)).toEqual(['update']);
    // The removal is a date in the store, not a timer in the process: a delivery killed meanwhile still removes them.
    await harness.restartDelivery!('SIGKILL');
    await waitFor('the update token removed after the dismissal date', async () => ((await tokenKinds(device.id)).length === 0 ? true : undefined), 90_000);
    expect(Date.now()).toBeGreaterThanOrEqual(dismissal * 1000);
  });

  it("reaches a user's devices by external id, reports a dead token invalid and removes it", async () => {
    const alive = await iosDevice('la-user-1', 'la-user');
    const dead = await iosDevice('la-user-2', 'la-user');
    await attach(alive.id, { kind: 'push_to_start', token: apnsToken('la-user-pts'), attributes_type: 'ScoreAttributes' }, project.api_key);
    await attach(dead.id, { kind: 'push_to_start', token: apnsToken('la-dead-pts'), attributes_type: 'ScoreAttributes' }, project.api_key);
    const start = await accepted({ event: 'start', targets: [{ external_id: 'la-user' }], attributes_type: 'ScoreAttributes', attributes: {}, content_state: { home: 1 }, alert: { title: 'Kick-off', body: '1 - 0' } });
    const outcomes = (await reported(start.id)).outcomes;
    expect(Object.fromEntries(outcomes.map((row) => [row.device_id, row.outcome]))).toEqual({ [alive.id]: 'delivered', [dead.id]: 'invalid' });
    const left = (await harness.request('GET', `/api/v1/devices/${dead.id}/live-activity-tokens`, { key: project.api_key })).body!.data as unknown[];
    expect(left).toEqual([]);
  });

  it('sends again after APNs pushes back, with the same timestamp, until delivered', async () => {
    const device = await iosDevice('la-busy-phone');
    const token = apnsToken('la-busy-upd');
    await attach(device.id, { kind: 'update', token, activity_id: 'la-busy-act' }, project.api_key);
    const update = await accepted({ event: 'update', activity_id: 'la-busy-act', content_state: { eta: 3 } });
    expect((await reported(update.id)).outcomes).toMatchObject([{ device_id: device.id, outcome: 'delivered' }]);
    const pushes = pushesTo(token);
    expect(pushes).toHaveLength(1);
    expect((pushes[0]?.payload as { aps: { timestamp: number } }).aps.timestamp).toBe(update.timestamp);
    // Two 429s, then the third attempt of the same request was taken.
    expect(apns().stats.byReason.TooManyRequests).toBe(2);
  });

  it('answers a request no token matches with no outcomes', async () => {
    const none = await accepted({ event: 'update', activity_id: 'la-nobody', content_state: { eta: 1 } });
    expect(await reported(none.id)).toMatchObject({ status: 'sent', outcomes: [] });
  });

  it("fails for a project without APNs credentials, and the device's explain names what is missing", async () => {
    const bare = await harness.createProject('live-activities-bare');
    const registered = await harness.request('POST', '/api/v1/devices', { body: { project_id: bare.id, token: apnsToken('la-bare-phone'), platform: 'ios' }, key: bare.api_key });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const deviceId = (registered.body!.data as { id: string }).id;
    await waitFor('device projected', async () => ((await harness.request('GET', `/api/v1/devices/${deviceId}`, { key: bare.api_key })).status === 200 ? true : undefined));
    expect(await harness.request('POST', `/api/v1/devices/${deviceId}/live-activity-tokens`, { key: bare.api_key, body: { kind: 'push_to_start', token: apnsToken('la-bare-pts'), attributes_type: 'A' } })).toMatchObject({ status: 201 });
    const started = await harness.request('POST', '/api/v1/live-activities', { key: bare.api_key, body: { event: 'start', targets: [{ device_id: deviceId }], attributes_type: 'A', attributes: {}, content_state: {}, alert: { title: 't', body: 'b' } } });
    expect(started.status).toBe(201);
    const id = (started.body!.data as { id: string }).id;
    await waitFor('the start reported', async () => ((await harness.request('GET', `/api/v1/live-activities/${id}`, { key: bare.api_key })).body?.data as Sent | undefined)?.status === 'sent' || undefined, 90_000);
    expect((await harness.request('GET', `/api/v1/live-activities/${id}`, { key: bare.api_key })).body!.data).toMatchObject({ outcomes: [{ device_id: deviceId, outcome: 'failed', reason: 'NoApnsCredentials' }], counts: { failed: 1 } });
    const explained = await harness.request('GET', `/api/v1/devices/${deviceId}/explain`, { key: bare.api_key });
    expect(explained.status, JSON.stringify(explained.body)).toBe(200);
    const [fact] = (explained.body!.data as { live_activities: Array<{ id: string; outcome: string; summary: string }> }).live_activities;
    expect(fact).toMatchObject({ id, outcome: 'failed' });
    expect(fact!.summary).toContain('herald providers apns');
  });

  it('refuses bad bodies naming the field, and another project reads nothing', async () => {
    expect(await send({ event: 'pause' })).toMatchObject({ status: 400 });
    expect(await send({ event: 'update', activity_id: 'x', content_state: { a: 1 }, extra: true })).toMatchObject({ status: 400 });
    const noState = await send({ event: 'update', activity_id: 'la-act-1' });
    expect(noState.status).toBe(422);
    expect(JSON.stringify(noState.body)).toContain('content_state');
    const startWithout = await send({ event: 'start', attributes_type: 'DeliveryAttributes', attributes: {}, content_state: {}, alert: { title: 't', body: 'b' } });
    expect(startWithout.status).toBe(422);
    expect(JSON.stringify(startWithout.body)).toContain('targets');
    const startBody = { event: 'start', attributes_type: 'DeliveryAttributes', attributes: {}, content_state: {}, alert: { title: 't', body: 'b' } };
    const emptyAnd = await send({ ...startBody, targets: [{ and: [] }] });
    expect(emptyAnd.status).toBe(422);
    expect(JSON.stringify(emptyAnd.body)).toContain('targets[0].and');
    const segment = await send({ ...startBody, targets: ['fans', { or: [{ segment: 'vip' }] }] });
    expect(segment.status).toBe(422);
    expect(JSON.stringify(segment.body)).toContain('targets[1].or[0].segment');
    const tooBig = await send({ event: 'update', activity_id: 'la-act-1', content_state: { blob: 'x'.repeat(5000) } });
    expect(tooBig.status).toBe(422);
    expect(JSON.stringify(tooBig.body)).toContain('content_state');
    expect(await harness.request('POST', '/api/v1/live-activities', { body: { event: 'update', activity_id: 'x', content_state: {} } })).toMatchObject({ status: 401 });

    const mine = await accepted({ event: 'update', activity_id: 'la-private', content_state: { a: 1 } });
    const other = await harness.createProject('live-activities-other');
    expect(await harness.request('GET', `/api/v1/live-activities/${mine.id}`, { key: other.api_key })).toMatchObject({ status: 404 });
  });
});
