import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, newId } from '@herald/events';
import { createTopics, startApiHarness, waitFor, waitForReceiptsCaughtUp, type ApiHarness, apnsToken, apnsTokenPrefix } from '@herald/testing';

/**
 * Explain against the real Kafka and store, with delivery sending to the
 * fake APNs: one send leaves devices unreached for each reason (not matched
 * by a topic, not matched by a metadata value, inactive after a provider's
 * BadDeviceToken, unregistered, registered after the send), a cancelled and
 * an expired send reach nobody, and explain names each reason — over the
 * API, project-scoped, and from the CLI.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };
const ids: Record<string, string> = {};
const SPAN_LIMIT = 300;

interface Reach { reached: boolean; reason: string; summary: string; clauses: Array<{ clause: string; matched: boolean; detail: string }>; inactive_since: string | null; evidence: { provider: string; reason: string; notification_id: string | null } | null; audience_position: { partition: number; offset: number } | null; registered_at: { offset: number } | null; receipts: Array<{ outcome: string }> }
interface Timeline { device_id: string; status: string; timeline: Array<{ kind: string; summary: string; notification_id?: string; evidence?: { reason: string; notification_id: string | null }; receipt?: { outcome: string; reason: string | null } }> }

const register = async (token: string, extra: Record<string, unknown> = {}) => {
  const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'ios', ...extra } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const send = async (notification: Record<string, unknown>) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hi', body: 'there', ...notification } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const status = async (id: string) => ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string } | undefined)?.status;
const explain = async (notificationId: string, deviceId: string, key = project.api_key) => harness.request('GET', `/api/v1/notifications/${notificationId}/explain?device_id=${deviceId}`, { key });
const reach = async (notificationId: string, deviceId: string) => {
  const response = await explain(notificationId, deviceId);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body!.data as { device: Reach }).device;
};

let campaign: string;
let firstSend: string;

beforeAll(async () => {
  // A span bound far above what these tests read, and below what the last one makes a device's partition hold.
  harness = await startApiHarness('explain', { delivery: true, apiEnv: { EXPLAIN_MAX_RECORDS: String(SPAN_LIMIT) } });
  project = await harness.createProject('explain');
  other = await harness.createProject('explain-other');
  await harness.fakes!.configure(project.id);
  harness.fakes!.apns.setRules([{ prefix: apnsTokenPrefix('bad-'), status: 400, reason: 'BadDeviceToken' }]);
  await createTopics(harness, project.api_key, ['news', 'sports']);

  ids.reached = await register(apnsToken('ios-reached'), { topics: ['news'], metadata: { plan: 'pro' } });
  ids.topic = await register(apnsToken('ios-topic'), { topics: ['sports'] });
  ids.metadata = await register(apnsToken('ios-metadata'), { metadata: { plan: 'free' } });
  ids.inactive = await register(apnsToken('bad-token'), { topics: ['news'] });
  ids.unregistered = await register(apnsToken('ios-unregistered'), { topics: ['news'] });
  // The provider rejects the token: the device is deactivated with its evidence.
  firstSend = await send({ targets: [{ device_id: ids.inactive }] });
  await waitFor('the rejected token deactivated', async () => {
    const device = await harness.request('GET', `/api/v1/devices/${ids.inactive}`, { key: project.api_key });
    return (device.body?.data as { status: string } | undefined)?.status === 'inactive';
  }, 60_000);
  expect((await harness.request('DELETE', `/api/v1/devices/${ids.unregistered}`, { key: project.api_key })).status).toBe(204);
  await waitFor('the deleted device inactive', async () => ((await harness.request('GET', `/api/v1/devices/${ids.unregistered}`, { key: project.api_key })).body?.data as { status: string } | undefined)?.status === 'inactive');

  campaign = await send({ targets: [{ topic: 'news' }, { metadata: { plan: 'pro' } }] });
  await waitFor('the campaign sent', async () => (await status(campaign)) === 'sent', 60_000);
  // Registered after the send's audience was taken (the send is dispatched): never in its audience.
  ids.late = await register(apnsToken('ios-late'), { topics: ['news'] });
  await waitFor('the late device projected', async () => (await harness.request('GET', `/api/v1/devices/${ids.late}`, { key: project.api_key })).status === 200);
  // A device's timeline reads the notifications it had a receipt of from the delivery ledger, and an open needs its
  // delivered receipt there: the ledger is a projection of its own, which the waits above (devices, statuses) do not cover.
  await waitForReceiptsCaughtUp(harness.env.kafka);
}, 240_000);

afterAll(async () => {
  await harness?.stop();
});

describe('explain a notification for a device (API)', () => {
  it('reached: its receipt', async () => {
    const answer = await reach(campaign, ids.reached!);
    expect(answer).toMatchObject({ reached: true, reason: 'reached', receipts: [{ outcome: 'delivered' }] });
    expect(answer.clauses.filter((clause) => clause.matched).map((clause) => clause.clause).sort()).toEqual(['metadata', 'topic']);
  });

  it('not matched: the topic it is not subscribed to', async () => {
    const answer = await reach(campaign, ids.topic!);
    expect(answer).toMatchObject({ reached: false, reason: 'not_matched' });
    expect(answer.clauses.find((clause) => clause.clause === 'topic')).toMatchObject({ matched: false });
    expect(answer.clauses.find((clause) => clause.clause === 'topic')!.detail).toBe('topic: not subscribed to "news" (subscribed to "sports")');
  });

  it('not matched: the metadata value that differs', async () => {
    const answer = await reach(campaign, ids.metadata!);
    expect(answer.reason).toBe('not_matched');
    expect(answer.summary).toContain('metadata {"plan":"pro"}: key "plan" is "free", not "pro"');
    expect(answer.audience_position).not.toBeNull();
  });

  it("inactive: since when, and the provider's evidence", async () => {
    const answer = await reach(campaign, ids.inactive!);
    expect(answer).toMatchObject({ reached: false, reason: 'inactive', evidence: { provider: 'apns', reason: 'BadDeviceToken', notification_id: firstSend } });
    expect(answer.inactive_since).not.toBeNull();
  });

  it('unregistered by the project', async () => {
    expect(await reach(campaign, ids.unregistered!)).toMatchObject({ reached: false, reason: 'unregistered' });
  });

  it("registered after the send's audience position", async () => {
    const answer = await reach(campaign, ids.late!);
    expect(answer).toMatchObject({ reached: false, reason: 'registered_after_send', device_at_send: null });
    expect(answer.registered_at!.offset).toBeGreaterThanOrEqual(answer.audience_position!.offset);
  });

  it('cancelled: a scheduled send cancelled before it was due', async () => {
    const scheduled = await send({ targets: [{ device_id: ids.reached }], send_at: new Date(Date.now() + 3_600_000).toISOString() });
    await waitFor('the send listed as scheduled', async () => (await status(scheduled)) === 'scheduled');
    expect((await harness.request('POST', `/api/v1/notifications/${scheduled}/cancel`, { key: project.api_key })).status).toBe(202);
    await waitFor('the cancel in the log', async () => (await status(scheduled)) === 'cancelled');
    expect(await reach(scheduled, ids.reached!)).toMatchObject({ reached: false, reason: 'cancelled' });
  });

  it('expired: a request that waited longer than DELIVERY_MAX_AGE_MS', async () => {
    const old = createEvent('NotificationRequested', { notification_id: newId(), title: 'Stale', body: 'x', targets: [{ device_id: ids.reached! }] }, { project_id: project.id, now: new Date(Date.now() - 2 * 86_400_000) });
    await harness.env.producer.publish([old]);
    await waitFor('the notification expired', async () => (await status(old.data.notification_id)) === 'expired', 30_000);
    const answer = await reach(old.data.notification_id, ids.reached!);
    expect(answer).toMatchObject({ reached: false, reason: 'expired' });
    expect(answer.summary).toContain('DELIVERY_MAX_AGE_MS');
  });

  it("answers 404 for another project's notification or device, and 400 for a bad id", async () => {
    expect((await explain(campaign, ids.reached!, other.api_key)).status).toBe(404);
    const otherDevice = await harness.request('POST', '/api/v1/devices', { body: { project_id: other.id, token: apnsToken('other-token'), platform: 'ios' } });
    const otherId = (otherDevice.body!.data as { id: string }).id;
    const crossed = await explain(campaign, otherId);
    expect(crossed.status).toBe(404);
    expect(crossed.body).toEqual({ errors: [expect.stringMatching(/device .* does not exist/)] });
    expect((await harness.request('GET', `/api/v1/devices/${ids.reached}/explain`, { key: other.api_key })).status).toBe(404);
    expect((await harness.request('GET', '/api/v1/devices/not-a-uuid/explain', { key: project.api_key })).status).toBe(400);
    expect((await harness.request('GET', `/api/v1/devices/${ids.reached}/explain`)).status).toBe(401);
  });
});

describe('a device timeline', () => {
  it("tells registration, deactivation with the provider's evidence, receipts, reactivation, metadata and opens from the log (API)", async () => {
    // Back from inactive, then a metadata change and an open of a delivered notification.
    await register(apnsToken('bad-token'), { topics: ['news'] });
    const patched = await harness.request('PATCH', `/api/v1/metadata?project_id=${project.id}&identifier=${ids.inactive}`, { body: { metadata: { plan: 'gold' } } });
    expect(patched.status).toBe(200);
    expect((await harness.request('PUT', `/api/v1/notifications/${campaign}/open`, { body: { project_id: project.id, token: apnsToken('ios-reached') } })).status).toBe(204);

    const inactive = await waitFor('the metadata change in the timeline', async () => {
      const response = await harness.request('GET', `/api/v1/devices/${ids.inactive}/explain`, { key: project.api_key });
      const data = response.body?.data as Timeline | undefined;
      return data?.timeline.some((entry) => entry.kind === 'metadata_changed') === true ? data : undefined;
    }, 30_000);
    // The receipt and the deactivation come from one provider answer: either may be stamped first.
    const kinds = inactive.timeline.map((entry) => entry.kind);
    expect([kinds[0], ...kinds.slice(1, 3).sort(), ...kinds.slice(3)]).toEqual(['registered', 'deactivated', 'receipt', 'reactivated', 'metadata_changed']);
    expect(inactive.timeline.find((entry) => entry.kind === 'receipt')).toMatchObject({ notification_id: firstSend, receipt: { outcome: 'invalid', reason: 'BadDeviceToken' } });
    expect(inactive.timeline.find((entry) => entry.kind === 'deactivated')).toMatchObject({ evidence: { reason: 'BadDeviceToken', notification_id: firstSend } });
    expect(inactive.status).toBe('active');

    const reached = await waitFor('the open in the timeline', async () => {
      const data = (await harness.request('GET', `/api/v1/devices/${ids.reached}/explain`, { key: project.api_key })).body?.data as Timeline | undefined;
      return data?.timeline.some((entry) => entry.kind === 'opened') === true ? data : undefined;
    }, 30_000);
    expect(reached.timeline.map((entry) => [entry.kind, entry.notification_id])).toEqual([
      ['registered', undefined],
      ['receipt', campaign],
      ['opened', campaign],
    ]);
  });

  it('the CLI explains a notification for a device and a device by token', async () => {
    const text = await harness.herald('explain', 'notification', campaign, '--device', ids.metadata!);
    expect(text).toContain(`device ${ids.metadata}: not reached — not_matched`);
    expect(text).toContain('✗ metadata {"plan":"pro"}: key "plan" is "free", not "pro"');
    const json = JSON.parse(await harness.herald('explain', 'notification', campaign, '--device', ids.unregistered!, '--json')) as { device: Reach };
    expect(json.device.reason).toBe('unregistered');
    const timeline = await harness.herald('explain', 'device', apnsToken('bad-token'), '--project', project.id);
    expect(timeline).toMatch(/deactivated\s+deactivated: apns answered BadDeviceToken/);
    await expect(harness.herald('explain', 'device', ids.reached!, '--max-records', '1')).rejects.toThrow(/over the limit of 1/);
  });

  it('refuses over the API a read that would span more log records than EXPLAIN_MAX_RECORDS, reading nothing', async () => {
    const before = ((await harness.request('GET', `/api/v1/devices/${ids.topic}/explain`, { key: project.api_key })).body!.data as { scanned_records: number }).scanned_records;
    expect(before).toBeLessThan(SPAN_LIMIT);
    // A device whose partition then holds more than the bound: its history spans it.
    const filler = Array.from({ length: SPAN_LIMIT }, (_, n) => createEvent('MetadataUpdated', { device_id: ids.topic!, set: { n: String(n) }, unset: [] }, { project_id: project.id }));
    await harness.env.producer.publish(filler);
    const refused = await harness.request('GET', `/api/v1/devices/${ids.topic}/explain`, { key: project.api_key });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ errors: [expect.stringMatching(new RegExp(`^reading \\d+ log records \\(herald\\.device-events\\[\\d\\] \\d+\\.\\.\\d+.*\\) is over the limit of ${SPAN_LIMIT}$`))] });
  });
});
