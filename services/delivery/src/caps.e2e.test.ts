import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, createTopics, type TestClock, outputTails, startApiHarness, waitFor, type ApiHarness, apnsToken, apnsTokenLabel } from '@herald/testing';

/**
 * Frequency caps and quiet hours over the real stack (Kafka, the store, every
 * service in its own process, fake APNs): a per-user cap that drops and one
 * that defers (the deferred pushes leave once the window allows), max_duration
 * expiring what the window allows only later, quiet hours deferring to each
 * device's own morning (the schedule clock moved through HERALD_CLOCK_FILE),
 * transactional sends bypassing both, and every notification's counts equal
 * to its receipts.
 */
type Project = { id: string; api_key: string };
type Counts = Record<'targeted' | 'sent' | 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'expired' | 'capped' | 'deferred', number>;
type View = { status: string; counts: Counts };
type Receipt = { device_id: string; outcome: string; reason: string | null; rule?: string; until?: string };

let harness: ApiHarness;
let clock: TestClock;
const projects: Record<'drop' | 'defer' | 'quiet', Project> = {} as never;

const moveClockTo = (instant: number) => clock.moveTo(instant);
const register = (project: Project, token: string, extra: Record<string, unknown>) =>
  harness.request('POST', '/api/v1/devices', { key: project.api_key, body: { project_id: project.id, token: apnsToken(token), platform: 'ios', topics: ['all'], ...extra } });
const send = async (project: Project, extra: Record<string, unknown> = {}) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hi', body: 'x', targets: ['all'], ...extra } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const view = async (project: Project, id: string) => (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as View | undefined;
const receipts = async (project: Project, id: string) => ((await harness.request('GET', `/api/v1/notifications/${id}/receipts?limit=100`, { key: project.api_key })).body?.data ?? []) as Receipt[];
const pushes = (id: string) => harness.fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id: string }).notification_id === id);
/** The labels of the tokens a notification reached (`register` makes each label an APNs token). */
const tokensOf = (id: string) => pushes(id).map((push) => apnsTokenLabel(push.token)).sort();
const finished = (project: Project, id: string, what = 'sent') => waitFor(`notification ${id} ${what}`, async () => ((await view(project, id))?.status === 'sent' ? await view(project, id) : undefined), 60_000);
const outcomes = (rows: readonly Receipt[]) => Object.fromEntries([...new Set(rows.map((row) => row.outcome))].sort().map((outcome) => [outcome, rows.filter((row) => row.outcome === outcome).length]));

/** The notification's counts equal its receipts, outcome by outcome, once the projections caught up. */
async function countsEqualReceipts(project: Project, id: string): Promise<{ view: View; rows: Receipt[] }> {
  return waitFor(`counts of ${id} equal to its receipts`, async () => {
    const current = await view(project, id);
    const rows = await receipts(project, id);
    if (current === undefined) return undefined;
    const fromCounts = Object.fromEntries(
      (['capped', 'cancelled', 'deferred', 'delivered', 'expired', 'failed', 'invalid'] as const).filter((outcome) => current.counts[outcome] > 0).map((outcome) => [outcome, current.counts[outcome]]),
    );
    return JSON.stringify(fromCounts) === JSON.stringify(outcomes(rows)) && rows.length === current.counts.targeted ? { view: current, rows } : undefined;
  });
}

beforeAll(async () => {
  clock = await createTestClock();
  const clockEnv = clock.env;
  harness = await startApiHarness('caps', { delivery: true, apiEnv: clockEnv, deliveryEnv: {
      ...clockEnv,
      DELIVERY_SCHEDULER_POLL_MS: '100',
      DELIVERY_SCHEDULER_IDLE_MS: '100',
      // The quiet-hours test sends with the schedule clock two days ahead (the request's own time stays real).
      DELIVERY_MAX_AGE_MS: String(4 * 86_400_000),
    } });
  for (const name of ['drop', 'defer', 'quiet'] as const) {
    projects[name] = await harness.createProject(`caps-${name}`);
    await harness.fakes!.configure(projects[name].id);
    await createTopics(harness, projects[name].api_key, ['all']);
  }
  // Set before any send of the project (delivery reads a project's settings at most every 10 s).
  expect(JSON.parse(await harness.herald('projects', 'caps', projects.drop.id, '1/1h', '--per', 'user', '--on-cap', 'drop', '--json'))).toEqual({
    project_id: projects.drop.id,
    frequency_cap: { max: 1, window_seconds: 3_600, per: 'user', on_cap: 'drop' },
  });
  await harness.herald('projects', 'caps', projects.defer.id, '1/20s', '--per', 'user', '--on-cap', 'defer');
  expect(JSON.parse(await harness.herald('projects', 'quiet-hours', projects.quiet.id, '22:00-08:00', '--json'))).toEqual({ project_id: projects.quiet.id, quiet_hours: { start: '22:00', end: '08:00' } });

  const registrations = [
    // ann has two devices, bob one; solo belongs to no user (counted by itself).
    register(projects.drop, 'ann-1', { external_id: 'ann' }),
    register(projects.drop, 'ann-2', { external_id: 'ann' }),
    register(projects.drop, 'bob-1', { external_id: 'bob' }),
    register(projects.drop, 'solo', {}),
    register(projects.defer, 'cat-1', { external_id: 'cat' }),
    register(projects.defer, 'cat-2', { external_id: 'cat' }),
    register(projects.quiet, 'paris', { timezone: 'Europe/Paris' }),
    register(projects.quiet, 'tokyo', { timezone: 'Asia/Tokyo' }),
    register(projects.quiet, 'new-york', { timezone: 'America/New_York' }),
  ];
  for (const response of await Promise.all(registrations)) expect(response.status).toBe(201);
  for (const [name, count] of [['drop', 4], ['defer', 2], ['quiet', 3]] as const) {
    await waitFor(`${name}'s devices projected`, async () => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: projects[name].api_key })).body?.pagination as { count: number } | undefined)?.count === count);
  }
}, 240_000);

afterEach((context) => {
  if (context.task.result?.state !== 'fail') return;
  // What the services said, for the failure's story (the last lines of each).
  process.stderr.write(outputTails(harness));
});

afterAll(async () => {
  await harness?.stop();
  await clock?.remove();
});

describe('frequency caps', () => {
  it('drops a campaign over the per-user cap (all of the user’s devices), reports it capped with the rule; transactional sends bypass it', async () => {
    const project = projects.drop;
    const first = await send(project, { priority_lane: 'campaign' });
    const one = await finished(project, first);
    expect(one.counts).toMatchObject({ targeted: 4, delivered: 4, capped: 0 });
    expect(tokensOf(first)).toEqual(['ann-1', 'ann-2', 'bob-1', 'solo']);
    await countsEqualReceipts(project, first);

    const second = await send(project, { priority_lane: 'campaign' });
    const two = await waitFor(`notification ${second} sent after its deferral`, async () => ((await view(project, second))?.status === 'sent' ? await view(project, second) : undefined), 60_000);
    expect(two.counts).toMatchObject({ targeted: 4, sent: 0, delivered: 0, capped: 4 });
    const { rows } = await countsEqualReceipts(project, second);
    expect(rows.map((row) => [row.outcome, row.reason, row.rule])).toEqual(Array.from({ length: 4 }, () => ['capped', 'FrequencyCap', 'cap 1/3600s per user']));
    expect(pushes(second)).toEqual([]);

    // Transactional sends bypass the cap: named so, or small by default (the express lane).
    for (const extra of [{ priority_lane: 'transactional' }, {}]) {
      const id = await send(project, extra);
      expect((await finished(project, id)).counts).toMatchObject({ targeted: 4, delivered: 4, capped: 0 });
      expect(tokensOf(id)).toEqual(['ann-1', 'ann-2', 'bob-1', 'solo']);
      await countsEqualReceipts(project, id);
    }
  }, 180_000);

  it('defers a campaign over the per-user cap to when the window allows, then delivers it; expires what max_duration cuts off', async () => {
    const project = projects.defer;
    const first = await send(project, { priority_lane: 'campaign' });
    await finished(project, first);
    const firstAt = Math.min(...pushes(first).map((push) => push.receivedAt));

    const second = await send(project, { priority_lane: 'campaign' });
    // Reported deferred at once, with the rule and the instant the window allows.
    const deferred = await waitFor('the second campaign deferred', async () => {
      const rows = await receipts(project, second);
      return rows.length === 2 && rows.every((row) => row.outcome === 'deferred') ? rows : undefined;
    });
    expect(deferred.map((row) => [row.reason, row.rule])).toEqual([
      ['FrequencyCap', 'cap 1/20s per user'],
      ['FrequencyCap', 'cap 1/20s per user'],
    ]);
    const until = Date.parse(deferred[0]!.until!);
    expect(deferred[1]!.until).toBe(deferred[0]!.until);
    expect(until).toBeGreaterThan(firstAt);
    expect(until).toBeLessThanOrEqual(firstAt + 20_000 + 1_000);
    // The notification read model follows the ledger: both devices dispatched and deferred, and it is still sending.
    const held = await waitFor('the second campaign counted deferred', async () => {
      const current = await view(project, second);
      return current?.counts.targeted === 2 && current.counts.deferred === 2 ? current : undefined;
    });
    expect(held.status).toBe('sending');
    expect(held.counts).toMatchObject({ delivered: 0, sent: 0 });

    // A third campaign the window allows only after the second's: past its max_duration, it is expired at once.
    const third = await send(project, { priority_lane: 'campaign', max_duration: 5 });
    const three = await finished(project, third);
    expect(three.counts).toMatchObject({ targeted: 2, expired: 2, delivered: 0, deferred: 0 });
    const expired = (await countsEqualReceipts(project, third)).rows;
    expect(expired.map((row) => [row.outcome, row.reason, row.rule])).toEqual([
      ['expired', 'MaxDurationExceeded', 'cap 1/20s per user'],
      ['expired', 'MaxDurationExceeded', 'cap 1/20s per user'],
    ]);

    // The deferred pushes leave once the window allows, once each; their outcomes replace `deferred`.
    const two = await waitFor(`notification ${second} sent after its deferral`, async () => ((await view(project, second))?.status === 'sent' ? await view(project, second) : undefined), 60_000);
    expect(two.counts).toMatchObject({ targeted: 2, sent: 2, delivered: 2, deferred: 0 });
    expect(tokensOf(second)).toEqual(['cat-1', 'cat-2']);
    for (const push of pushes(second)) expect(push.receivedAt).toBeGreaterThanOrEqual(until - 50);
    const { rows } = await countsEqualReceipts(project, second);
    expect(rows.map((row) => row.outcome)).toEqual(['delivered', 'delivered']);
    expect(pushes(third)).toEqual([]);
  }, 180_000);
});

describe('quiet hours', () => {
  it("defer a campaign to each device's own morning; a transactional send goes at once", async () => {
    const project = projects.quiet;
    // 23:00 in Paris two days ahead: 07:00 in Tokyo (quiet too, until its 08:00), 17:00 in New York (not quiet).
    const day = DateTime.utc().plus({ days: 2 }).toISODate();
    const start = DateTime.fromISO(`${day}T23:00`, { zone: 'Europe/Paris' });
    const tokyoMorning = start.setZone('Asia/Tokyo').set({ hour: 8, minute: 0, second: 0, millisecond: 0 }).toMillis();
    const parisMorning = start.plus({ days: 1 }).set({ hour: 8, minute: 0, second: 0, millisecond: 0 }).toMillis();
    expect(tokyoMorning).toBeGreaterThan(start.toMillis());
    await moveClockTo(start.toMillis());

    const urgent = await send(project, { priority_lane: 'transactional' });
    expect((await finished(project, urgent)).counts).toMatchObject({ targeted: 3, delivered: 3, deferred: 0 });
    await countsEqualReceipts(project, urgent);

    const campaign = await send(project, { priority_lane: 'campaign' });
    await waitFor('New York reached, Paris and Tokyo deferred', async () => outcomes(await receipts(project, campaign)).deferred === 2 && tokensOf(campaign).length === 1);
    expect(tokensOf(campaign)).toEqual(['new-york']);
    const rows = await receipts(project, campaign);
    expect(rows.filter((row) => row.outcome === 'deferred').map((row) => [row.reason, row.rule, Date.parse(row.until!)]).sort()).toEqual(
      [
        ['QuietHours', 'quiet 22:00-08:00 Asia/Tokyo', tokyoMorning],
        ['QuietHours', 'quiet 22:00-08:00 Europe/Paris', parisMorning],
      ].sort(),
    );
    await waitFor('New York reported delivered', async () => outcomes(await receipts(project, campaign)).delivered === 1);
    await countsEqualReceipts(project, campaign);

    // Tokyo's morning: only Tokyo's push leaves.
    await moveClockTo(tokyoMorning + 1_000);
    await waitFor('Tokyo reached in its morning', () => tokensOf(campaign).includes('tokyo'), 30_000);
    expect(tokensOf(campaign)).toEqual(['new-york', 'tokyo']);
    expect((await view(project, campaign))!.status).toBe('sending');

    // Paris's morning: the last one leaves and the campaign is sent.
    await moveClockTo(parisMorning + 1_000);
    const done = await finished(project, campaign);
    expect(done.counts).toMatchObject({ targeted: 3, delivered: 3, deferred: 0 });
    expect(tokensOf(campaign)).toEqual(['new-york', 'paris', 'tokyo']);
    const settled = await countsEqualReceipts(project, campaign);
    expect(settled.rows.map((row) => row.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    await moveClockTo(Date.now());
  }, 180_000);

  it('refuses bad settings naming the field', async () => {
    const refused = (args: string[]) => harness.herald('projects', ...args).then(
      () => 'accepted',
      (error: { stderr?: string }) => error.stderr ?? '',
    );
    expect(await refused(['caps', projects.drop.id, '0/1h'])).toContain('max: 0 must be a whole number of pushes from 1 to 1000');
    expect(await refused(['caps', projects.drop.id, '3/forever'])).toContain('window: forever must be a duration');
    expect(await refused(['caps', projects.drop.id, '3/1h', '--per', 'team'])).toContain('per: team must be device or user');
    expect(await refused(['caps', projects.drop.id, '3/1h', '--on-cap', 'queue'])).toContain('on_cap: queue must be drop or defer');
    expect(await refused(['quiet-hours', projects.quiet.id, '25:00-08:00'])).toContain('quiet_hours.start: 25:00 must be HH:mm');
  }, 60_000);
});
