import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, topicIdFor, type HeraldEvent } from '@herald/events';
import { apnsToken, apnsTokenPrefix, outputTails, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Issue 44, poison tokens. A token stored before the token rule, that no
 * provider accepts (a space in it: Node's HTTP/2 client refuses the request
 * before sending it), ends `invalid` on its first send and its device is
 * deactivated, never retried. And a batch that keeps retrying (the fake
 * APNs answers its token 500) holds neither its partition nor any other
 * project: another project's send reaches APNs within 2 s meanwhile.
 */
const MAX_ATTEMPTS = 2;

let harness: ApiHarness;
let victim: { id: string; api_key: string };
let bystander: { id: string; api_key: string };

interface Receipt {
  device_id: string;
  outcome: string;
  reason: string | null;
  attempts: number | null;
}

/** Registers devices straight through Kafka, as a token stored before the token rule was. */
async function seed(project: { id: string; api_key: string }, topic: string, tokens: readonly string[]): Promise<void> {
  const topicId = topicIdFor(project.id, topic);
  const context = { project_id: project.id };
  const events: HeraldEvent[] = [createEvent('TopicCreated', { topic_id: topicId, name: topic }, context)];
  for (const token of tokens) events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(project.id, token), token, platform: 'ios', topic_ids: [topicId] }, context));
  await harness.env.producer.publish(events);
  await waitFor(`${tokens.length} devices of ${project.id} projected`, async () => {
    const response = await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key });
    return (response.body?.pagination as { count: number } | undefined)?.count === tokens.length;
  }, 60_000);
}

async function send(project: { api_key: string }, targets: unknown[]): Promise<string> {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'T', body: 'B', targets } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
}

async function statusOf(project: { api_key: string }, id: string): Promise<{ status: string; counts: Record<string, number> } | undefined> {
  return (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: Record<string, number> } | undefined;
}

const sent = (project: { api_key: string }, id: string) =>
  waitFor(`notification ${id} sent`, async () => {
    const data = await statusOf(project, id);
    return data?.status === 'sent' ? data : undefined;
  }, 60_000);

/** A notification's receipts once all `count` are listed: the ledger is its own projection and may trail the counts. */
async function receipts(project: { api_key: string }, id: string, count: number): Promise<Receipt[]> {
  return waitFor(`the ${count} receipts of ${id}`, async () => {
    const body = (await harness.request('GET', `/api/v1/notifications/${id}/receipts?limit=100`, { key: project.api_key })).body as { data: Receipt[] } | undefined;
    return body !== undefined && body.data.length >= count ? body.data : undefined;
  });
}

const pushesTo = (tokens: readonly string[], id: string) =>
  harness.fakes!.apns.deliveries.filter((delivery) => tokens.includes(delivery.token) && (delivery.payload as { notification_id?: string }).notification_id === id);

beforeAll(async () => {
  harness = await startApiHarness('retrying-batch', {
    delivery: true,
    apnsRules: [{ prefix: apnsTokenPrefix('stuck-'), status: 500, reason: 'InternalServerError' }],
    deliveryEnv: { DELIVERY_MAX_ATTEMPTS: String(MAX_ATTEMPTS) },
  });
  victim = await harness.createProject('victim');
  bystander = await harness.createProject('bystander');
  await harness.fakes!.configure(victim.id);
  await harness.fakes!.configure(bystander.id);
}, 180_000);

afterEach((context) => {
  if (context.task.result?.state === 'fail') process.stderr.write(outputTails(harness, 60));
});

afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0, delivery: 0 });
});

const victimPhones = Array.from({ length: 6 }, (_, i) => apnsToken(`victim-${i}`));
// Stored before the rule: `${hex} 0` is what a stranger could register into the victim's topic.
const poison = `${'ab'.repeat(31)} 0`;
const stuck = apnsToken('stuck-1');
const bystanderPhones = Array.from({ length: 6 }, (_, i) => apnsToken(`bystander-${i}`));

describe('poison tokens and retrying batches', () => {
  it('a stored token no provider accepts ends invalid on its first send, its device deactivated; the topic is delivered', async () => {
    await seed(victim, 'news', [...victimPhones, poison]);
    const id = await send(victim, ['news']);
    const done = await sent(victim, id);
    expect(done.counts).toMatchObject({ targeted: 7, delivered: 6, invalid: 1, failed: 0 });
    const poisonId = deviceIdFor(victim.id, poison);
    expect((await receipts(victim, id, 7)).find((row) => row.device_id === poisonId)).toMatchObject({ outcome: 'invalid', reason: 'MalformedToken' });
    const device = await waitFor('the poisoned device deactivated', async () => {
      const data = (await harness.request('GET', `/api/v1/devices/${poisonId}`, { key: victim.api_key })).body?.data as { status: string; deactivation: unknown } | undefined;
      return data?.status === 'inactive' ? data : undefined;
    });
    expect(device.deactivation).toMatchObject({ reason: 'MalformedToken', provider: 'apns' });
    expect(pushesTo(victimPhones, id)).toHaveLength(6);
  }, 120_000);

  it("a batch that keeps retrying holds no other project: another project's send reaches APNs within 2 s", async () => {
    await seed(bystander, 'news', bystanderPhones);
    const stuckProject = await harness.createProject('stuck');
    await harness.fakes!.configure(stuckProject.id);
    await seed(stuckProject, 'alerts', [stuck]);
    const { apns } = harness.fakes!;
    const refusedBefore = apns.stats.byReason.InternalServerError ?? 0;
    const retrying = await send(stuckProject, ['alerts']);
    await waitFor('the stuck batch answered 500 once', () => (apns.stats.byReason.InternalServerError ?? 0) > refusedBefore, 30_000);

    const startedAt = Date.now();
    const id = await send(bystander, ['news']);
    const pushes = await waitFor("the bystander's six pushes", () => (pushesTo(bystanderPhones, id).length === 6 ? pushesTo(bystanderPhones, id) : undefined), 30_000);
    expect(Math.max(...pushes.map((push) => push.receivedAt)) - startedAt).toBeLessThanOrEqual(2_000);
    // It was still retrying meanwhile: the bound above is not that it had finished.
    expect((await statusOf(stuckProject, retrying))?.status).not.toBe('sent');
    expect((await sent(bystander, id)).counts).toMatchObject({ targeted: 6, delivered: 6 });

    // The retrying batch still ends as its attempts allow, reported once.
    const done = await sent(stuckProject, retrying);
    expect(done.counts).toMatchObject({ targeted: 1, failed: 1, delivered: 0 });
    expect(await receipts(stuckProject, retrying, 1)).toEqual([expect.objectContaining({ device_id: deviceIdFor(stuckProject.id, stuck), outcome: 'failed', reason: 'AttemptsExhausted', attempts: MAX_ATTEMPTS })]);
  }, 180_000);
});
