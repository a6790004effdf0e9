import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsToken, apnsTokenPrefix, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Live Activity pushes end to end (docs/guides/live-activities.md): an iOS
 * device with a push-to-start and an update token, POST /api/v1/live-activities
 * over the real Kafka and store, the delivery apns role sending to the fake
 * APNs (which checks them as a device would), GET answering the outcomes.
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
}

beforeAll(async () => {
  harness = await startApiHarness('live-activities', {
    delivery: true,
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

async function iosDevice(label: string, externalId?: string): Promise<{ id: string; token: string }> {
  const body = { project_id: project.id, token: apnsToken(label), platform: 'ios', ...(externalId === undefined ? {} : { external_id: externalId }) };
  const response = await harness.request('POST', '/api/v1/devices', { body, key: externalId === undefined ? undefined : project.api_key });
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

function reported(id: string): Promise<Sent> {
  return waitFor(`live activity push ${id} reported`, async () => {
    const response = await harness.request('GET', `/api/v1/live-activities/${id}`, { key: project.api_key });
    const sent = response.body?.data as Sent | undefined;
    return sent?.status === 'sent' ? sent : undefined;
  }, 90_000);
}

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
    const first = await accepted({ event: 'update', activity_id: 'la-act-1', content_state: { eta: 5 }, priority: 5 });
    const second = await accepted({ event: 'update', activity_id: 'la-act-1', content_state: { eta: 2 }, stale_date: 2_000_000_000 });
    expect(second.timestamp).toBeGreaterThan(first.timestamp);
    for (const id of [first.id, second.id]) expect((await reported(id)).outcomes).toMatchObject([{ device_id: device.id, outcome: 'delivered' }]);
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
    const tokens = (await harness.request('GET', `/api/v1/devices/${device.id}/live-activity-tokens`, { key: project.api_key })).body!.data as Array<{ kind: string }>;
    expect(tokens.map((token) => token.kind)).toEqual(['push_to_start']);
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

  it('refuses bad bodies naming the field, and another project reads nothing', async () => {
    expect(await send({ event: 'pause' })).toMatchObject({ status: 400 });
    expect(await send({ event: 'update', activity_id: 'x', content_state: { a: 1 }, extra: true })).toMatchObject({ status: 400 });
    const noState = await send({ event: 'update', activity_id: 'la-act-1' });
    expect(noState.status).toBe(422);
    expect(JSON.stringify(noState.body)).toContain('content_state');
    const startWithout = await send({ event: 'start', attributes_type: 'DeliveryAttributes', attributes: {}, content_state: {}, alert: { title: 't', body: 'b' } });
    expect(startWithout.status).toBe(422);
    expect(JSON.stringify(startWithout.body)).toContain('targets');
    const tooBig = await send({ event: 'update', activity_id: 'la-act-1', content_state: { blob: 'x'.repeat(5000) } });
    expect(tooBig.status).toBe(422);
    expect(JSON.stringify(tooBig.body)).toContain('content_state');
    expect(await harness.request('POST', '/api/v1/live-activities', { body: { event: 'update', activity_id: 'x', content_state: {} } })).toMatchObject({ status: 401 });

    const mine = await accepted({ event: 'update', activity_id: 'la-private', content_state: { a: 1 } });
    const other = await harness.createProject('live-activities-other');
    expect(await harness.request('GET', `/api/v1/live-activities/${mine.id}`, { key: other.api_key })).toMatchObject({ status: 404 });
  });
});
