import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, topicIdFor, type HeraldEvent } from '@herald/events';
import { readLogToEnd } from '@herald/kafka';
import { deliveryDeadLetters, outputTails, startApiHarness, waitFor, type ApiHarness, apnsToken, apnsTokenPrefix } from '@herald/testing';

/**
 * Some tokens the provider always answers 500 for, among many it accepts:
 * only the devices left open are tried again, a capped number of times, then
 * reported failed with reason AttemptsExhausted and the attempt count; no
 * other push is repeated and nothing is dead-lettered.
 */
const GOOD = 1_500;
const FAILING = 20;
const MAX_ATTEMPTS = 3;

let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('failing-batch', {
    delivery: true,
    apnsRules: [{ prefix: apnsTokenPrefix('ios-fail-'), status: 500, reason: 'InternalServerError' }],
    // A starved CI machine can hold an answer past the default 5 s request timeout, and a timed-out
    // push is rightly sent again; a long timeout keeps repeats to what this test is about.
    deliveryEnv: { DELIVERY_MAX_ATTEMPTS: String(MAX_ATTEMPTS), DELIVERY_RETRY_DEADLINE_MS: '300', APNS_REQUEST_TIMEOUT_MS: '60000' },
  });
  project = await harness.createProject('failing');
  await harness.fakes!.configure(project.id);
  const topicId = topicIdFor(project.id, 'crowd');
  const context = { project_id: project.id };
  const events: HeraldEvent[] = [createEvent('TopicCreated', { topic_id: topicId, name: 'crowd' }, context)];
  const tokens = [...Array.from({ length: GOOD }, (_, i) => apnsToken(`ios-ok-${i}`)), ...Array.from({ length: FAILING }, (_, i) => apnsToken(`ios-fail-${i}`))];
  for (const token of tokens) events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(project.id, token), token, platform: 'ios', topic_ids: [topicId] }, context));
  for (let i = 0; i < events.length; i += 1000) await harness.env.producer.publish(events.slice(i, i + 1000));
  await waitFor('all devices projected', async () => {
    const response = await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key });
    return (response.body?.pagination as { count: number } | undefined)?.count === GOOD + FAILING;
  }, 120_000);
}, 240_000);

afterEach((context) => {
  if (context.task.result?.state !== 'fail') return;
  // What the services said, for the failure's story (a repeat is a rebalance, a lost answer or a resent chunk: the log says which).
  process.stderr.write(outputTails(harness, 60));
});

afterAll(async () => {
  await harness?.stop();
});

describe('a failing batch among many', () => {
  it('re-sends only what failed, caps attempts visibly, dead-letters nothing', async () => {
    const { apns } = harness.fakes!;
    const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Now', targets: ['crowd'] } } });
    expect(sent.status).toBe(201);
    const id = (sent.body!.data as { id: string }).id;
    const data = await waitFor(`notification ${id} sent`, async () => {
      const body = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: Record<string, number> } | undefined;
      return body?.status === 'sent' ? body : undefined;
    }, 120_000);
    expect(data.counts).toMatchObject({ targeted: GOOD + FAILING, delivered: GOOD, failed: FAILING });

    // Every accepted token, and no batch re-sent for its neighbours' failure: that would repeat
    // hundreds of pushes (a batch is up to 500 devices). The margin covers a consumer-group
    // rebalance on a starved machine, which re-sends at most the pushes then in flight.
    const tokens = apns.deliveries.map((delivery) => delivery.token);
    expect(new Set(tokens).size).toBe(GOOD);
    const repeats = new Map<string, number>();
    for (const token of tokens) repeats.set(token, (repeats.get(token) ?? 0) + 1);
    const repeated = [...repeats].filter(([, count]) => count > 1);
    expect(tokens.length - GOOD, `repeated pushes, e.g. ${JSON.stringify(repeated.slice(0, 5))} (${repeated.length} tokens)`).toBeLessThan(50);

    // The cap is in the log: the failing devices are reported AttemptsExhausted after MAX_ATTEMPTS attempts.
    // Every report is there once the status is sent (the counts were projected from them), so one read to the end sees them all.
    const results = (await readLogToEnd(harness.env.kafka, [TOPICS.notificationEvents])).flatMap(({ event }) => (event?.type === 'DeliveryReported' && event.data.notification_id === id ? event.data.results : []));
    const failed = results.filter((result) => result.outcome === 'failed');
    expect(failed).toHaveLength(FAILING);
    expect(failed.every((result) => result.reason === 'AttemptsExhausted' && result.attempts === MAX_ATTEMPTS)).toBe(true);

    const deadLetters = await deliveryDeadLetters(harness.env.kafka, ['apns', 'fanout', 'fanoutPartitions']);
    expect(Object.values(deadLetters).every((count) => count === 0), `dead letters ${JSON.stringify(deadLetters)}`).toBe(true);
  }, 240_000);
});
