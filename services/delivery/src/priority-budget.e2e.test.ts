import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@herald/events';
import { readRecordAt, topicEnds } from '@herald/kafka';
import { deliveryDeadLetters, devicesPerPlatform, seedTopicAudience, outputTails, startApiHarness, waitFor, waitForReceiptsCaughtUp, type ApiHarness, type SeedDevice, seedToken } from '@herald/testing';

/**
 * Priority lanes and project budgets against the real Kafka and store, two
 * delivery instances: a budgeted campaign holds the project's budget across
 * both; a transactional send of the same project (declared, and a small
 * send by size) overtakes it; another project's campaign is not slowed by
 * it; a provider's 429 with Retry-After delays devices without failing
 * them. Counts equal the receipts after all of it.
 */
const PER_PLATFORM = 1_500;
const TOTAL = 2 * PER_PLATFORM;
const BUDGET = 300;
/** Devices whose first FCM answers are 429 QUOTA_EXCEEDED with Retry-After. */
const THROTTLED = 100;
const THROTTLED_ANSWERS = 3 * THROTTLED;

interface Project {
  id: string;
  api_key: string;
}
type Counts = Record<'targeted' | 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'expired', number>;
interface View {
  status: string;
  counts: Counts;
  priority_lane: string | null;
}

let harness: ApiHarness;
let budgeted: Project;
let other: Project;
let pushedBack: Project;
/** Every push the fakes accepted: notification, token, when. */
const pushes: Array<{ id: string; token: string; at: number }> = [];

const get = async (project: Project, id: string) => (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as View | undefined;
const send = async (project: Project, fields: Record<string, unknown>) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Now', targets: ['crowd'], ...fields } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const pushesOf = (id: string) => pushes.filter((push) => push.id === id);
const lastPush = (id: string) => Math.max(...pushesOf(id).map((push) => push.at));
const finished = (project: Project, id: string, audience: number) =>
  waitFor(`notification ${id} sent with all ${audience} devices accounted for`, async () => {
    const view = await get(project, id);
    const c = view?.counts;
    return view?.status === 'sent' && c !== undefined && c.delivered + c.failed + c.invalid + c.cancelled + c.expired === audience ? view : undefined;
  }, 180_000);
const receipts = async (project: Project, id: string, outcome: string) =>
  ((await harness.request('GET', `/api/v1/notifications/${id}/receipts?outcome=${outcome}&limit=1`, { key: project.api_key })).body as { pagination: { count: number } }).pagination.count;
/** Most pushes inside any window of `ms`. */
const busiestWindow = (times: readonly number[], ms: number) => {
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last += 1) {
    while (times[last]! - times[first]! >= ms) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
};

beforeAll(async () => {
  harness = await startApiHarness('priority-budget', {
    delivery: true,
    // A push-back longer than an attempt's deadline, more often than a batch has attempts: before item 2 these devices failed.
    deliveryEnv: { DELIVERY_CONCURRENCY: '2', DELIVERY_RETRY_DEADLINE_MS: '1000', DELIVERY_MAX_ATTEMPTS: '2' },
    fcmRules: [{ prefix: 'slow-', errorCode: 'QUOTA_EXCEEDED', retryAfterSeconds: 2, times: THROTTLED_ANSWERS }],
  });
  harness.fakes!.apns.onDelivery((d) => pushes.push({ id: String((d.payload as { notification_id?: unknown }).notification_id), token: d.token, at: Date.now() }));
  harness.fakes!.fcm.onDelivery((d) => pushes.push({ id: String((d.message.data as { notification_id?: unknown } | undefined)?.notification_id), token: d.token, at: Date.now() }));
  budgeted = await harness.createProject('budgeted');
  other = await harness.createProject('other');
  pushedBack = await harness.createProject('pushed-back');
  for (const project of [budgeted, other, pushedBack]) await harness.fakes!.configure(project.id);
  await seedTopicAudience(harness, budgeted, devicesPerPlatform(PER_PLATFORM));
  await seedTopicAudience(harness, other, devicesPerPlatform(PER_PLATFORM));
  const slow: SeedDevice[] = Array.from({ length: THROTTLED }, (_, i) => ({ token: `slow-android-${i}`, platform: 'android' }));
  await seedTopicAudience(harness, pushedBack, slow);
  expect(await harness.herald('projects', 'budget', budgeted.id, String(BUDGET))).toContain(`budget ${BUDGET} pushes per second`);
  await harness.addDelivery!();
}, 300_000);

afterEach((context) => {
  if (context.task.result?.state !== 'fail') return;
  process.stderr.write(outputTails(harness));
});

afterAll(async () => {
  await harness?.stop();
}, 60_000);

describe('priority lanes and project budgets', () => {
  it('holds the budget over two instances; transactional sends overtake the campaign; another project is not slowed', async () => {
    const campaign = await send(budgeted, { priority_lane: 'campaign' });
    await waitFor('a tenth of the budgeted campaign delivered', () => pushesOf(campaign).length >= TOTAL / 10, 60_000);
    const few = [7, 8, 9].map((n) => seedToken('ios', n)).concat([7, 8].map((n) => seedToken('android', n)));
    const urgent = await send(budgeted, { targets: few.map((token) => ({ token })), priority_lane: 'transactional' });
    const small = await send(budgeted, { targets: [...[17, 18, 19].map((n) => seedToken('ios', n)), ...[17, 18].map((n) => ({ token: seedToken('android', n) }))] });
    const elsewhere = await send(other, { priority_lane: 'campaign' });

    const urgentDone = await finished(budgeted, urgent, few.length);
    await finished(budgeted, small, few.length);
    await finished(other, elsewhere, TOTAL);
    const done = await finished(budgeted, campaign, TOTAL);

    // The budget: every device once, never faster than the budget (one slice per partition may lead), over both instances.
    const times = pushesOf(campaign).map((push) => push.at).sort((a, b) => a - b);
    expect(new Set(pushesOf(campaign).map((push) => push.token)).size).toBe(TOTAL);
    const elapsed = times.at(-1)! - times[0]!;
    expect(elapsed).toBeGreaterThanOrEqual(((TOTAL - 3 * (BUDGET / 3 / 2)) / BUDGET) * 1000 * 0.9);
    const perSecond = times.reduce<number[]>((counts, at) => ((counts[Math.floor((at - times[0]!) / 1000)] = (counts[Math.floor((at - times[0]!) / 1000)] ?? 0) + 1), counts), []);
    process.stdout.write(`budgeted campaign pushes per second: ${JSON.stringify(perSecond)}\n`);
    // The budget governs what the fan-out queues; the campaign sender lanes are one queue for every project, so
    // pushes queued on time can leave bunched after another project's burst ahead of them (here: the other
    // project's unpaced campaign). Measured over 2 s, the budget holds with a slice or two to spare.
    expect(busiestWindow(times, 2_000)).toBeLessThanOrEqual(2 * 2 * BUDGET);

    // Overtaking: both small sends of the same project were delivered while most of the campaign was still to go.
    for (const id of [urgent, small]) {
      expect(pushesOf(id)).toHaveLength(few.length);
      const campaignBefore = pushesOf(campaign).filter((push) => push.at <= lastPush(id)).length;
      expect(campaignBefore, `campaign pushes before ${id} was delivered`).toBeLessThan(TOTAL * 0.8);
    }
    // Fair share: the other project's campaign finished long before the budgeted one.
    expect(new Set(pushesOf(elsewhere).map((push) => push.token)).size).toBe(TOTAL);
    expect(pushesOf(campaign).filter((push) => push.at <= lastPush(elsewhere)).length).toBeLessThan(TOTAL * 0.8);

    expect(done.counts).toMatchObject({ targeted: TOTAL, delivered: TOTAL, failed: 0 });
    expect(done.priority_lane).toBe('campaign');
    expect(urgentDone.priority_lane).toBe('transactional');
    expect((await get(budgeted, small))?.priority_lane).toBeNull();
    await waitForReceiptsCaughtUp(harness.env.kafka);
    for (const [project, id] of [[budgeted, campaign], [budgeted, urgent], [other, elsewhere]] as const) {
      expect(await receipts(project, id, 'delivered')).toBe((await get(project, id))!.counts.delivered);
    }
    process.stdout.write(
      `budget ${BUDGET}/s: ${TOTAL} devices in ${elapsed} ms (${Math.round((TOTAL / elapsed) * 1000)}/s), busiest second ${busiestWindow(times, 1_000)}, busiest 2 s ${busiestWindow(times, 2_000)}; ` +
        `transactional delivered after ${pushesOf(campaign).filter((push) => push.at <= lastPush(urgent)).length} campaign pushes, other project's campaign after ${pushesOf(campaign).filter((push) => push.at <= lastPush(elsewhere)).length}\n`,
    );
  }, 240_000);

  it('waits out a 429 with Retry-After: the devices end delivered, not failed', async () => {
    const id = await send(pushedBack, { priority_lane: 'campaign' });
    const done = await finished(pushedBack, id, THROTTLED);
    expect(harness.fakes!.fcm.stats.byReason.QUOTA_EXCEEDED).toBe(THROTTLED_ANSWERS);
    expect(done.counts).toMatchObject({ targeted: THROTTLED, delivered: THROTTLED, failed: 0 });
    expect(new Set(pushesOf(id).map((push) => push.token)).size).toBe(THROTTLED);
    // The receipts come from the ledger, a projection of its own: it may trail the notification's counts.
    await waitFor('every device in the receipts', async () => (await receipts(pushedBack, id, 'delivered')) === THROTTLED);
    expect(await receipts(pushedBack, id, 'failed')).toBe(0);
    // The push-back reached herald.delivery-control (the only records there in this file), for the fan-out of every instance.
    const ends = await topicEnds(harness.env.kafka, TOPICS.deliveryControl);
    expect(ends[0]!.high).toBeGreaterThan(0);
    const first = await readRecordAt(harness.env.kafka, TOPICS.deliveryControl, 0, ends[0]!.low);
    expect(first).toMatchObject({ type: 'ProjectThrottled', project_id: pushedBack.id, data: { provider: 'fcm', reason: 'QUOTA_EXCEEDED' } });
    const deadLetters = await deliveryDeadLetters(harness.env.kafka);
    expect(Object.values(deadLetters).every((count) => count === 0), `dead letters ${JSON.stringify(deadLetters)}`).toBe(true);
  }, 240_000);

  it('refuses a paced transactional send and an unknown lane, naming the field', async () => {
    const paced = await harness.request('POST', '/api/v1/notifications', { key: budgeted.api_key, body: { notification: { title: 'a', body: 'b', targets: ['crowd'], priority_lane: 'transactional', rate_per_minute: 60 } } });
    expect(paced.status).toBe(422);
    expect(paced.body).toEqual({ errors: [expect.stringContaining('notification.rate_per_minute')] });
    const unknown = await harness.request('POST', '/api/v1/notifications', { key: budgeted.api_key, body: { notification: { title: 'a', body: 'b', targets: ['crowd'], priority_lane: 'urgent' } } });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body)).toContain('priority_lane');
    // A transactional send cannot be re-paced either (held for an hour, so it is still in flight when asked).
    const later = await send(budgeted, { targets: [seedToken('ios', 3)], priority_lane: 'transactional', send_at: new Date(Date.now() + 3_600_000).toISOString() });
    await waitFor('the scheduled transactional send in the read model', async () => (await get(budgeted, later))?.status === 'scheduled', 30_000);
    const repaced = await harness.request('PATCH', `/api/v1/notifications/${later}`, { key: budgeted.api_key, body: { rate_per_minute: 60 } });
    expect(repaced.status).toBe(422);
    expect(repaced.body).toEqual({ errors: ['rate_per_minute cannot be set on a priority_lane "transactional" notification (transactional sends are never paced)'] });
    expect((await harness.request('POST', `/api/v1/notifications/${later}/cancel`, { key: budgeted.api_key })).status).toBe(202);
  }, 60_000);
});
