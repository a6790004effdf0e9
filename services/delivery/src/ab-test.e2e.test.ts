import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignDevice } from '@herald/templates';
import { deviceIdFor } from '@herald/events';
import { createTestClock, createTopics, registerDevices, type TestClock, devicesPerPlatform, seedTopicAudience, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * An A/B send with a holdout and a test share through the real pipeline
 * (API, Kafka, the store, fan-out, senders, the FCM fake): the devices split
 * as their hashes say, the holdout gets nothing, B's opens make B win at
 * `decide_after` (reached by moving the schedule clock) and the remainder
 * gets B, each device once. And over 10,000 devices (registered straight
 * through Kafka) an A/B send's arms and holdout hold the shares asked for,
 * within statistical bounds, through the whole pipeline.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let clock: TestClock;
const DEVICES = 200;
const tokens = Array.from({ length: DEVICES }, (_, index) => `ab-device-${String(index).padStart(3, '0')}`);
let deviceIds: Map<string, string>;

beforeAll(async () => {
  clock = await createTestClock();
  harness = await startApiHarness('ab-test', { delivery: true, apiEnv: clock.env, deliveryEnv: { ...clock.env, DELIVERY_SCHEDULER_POLL_MS: '100', DELIVERY_SCHEDULER_IDLE_MS: '100' } });
  project = await harness.createProject('ab-test');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['ab']);
  deviceIds = await registerDevices(harness, project, tokens, { platform: 'android', topics: ['ab'] });
}, 300_000);

afterAll(async () => {
  await harness?.stop();
  await clock?.remove();
});

const pushesOf = (id: string) => harness.fakes!.fcm.deliveries.filter((delivery) => (delivery.message.data as { notification_id?: string } | undefined)?.notification_id === id);
type View = { status: string; counts_by_variant?: Record<string, { targeted: number; delivered: number; opened: number; held_out?: number }>; decision?: Record<string, unknown> };
type Report = { variants?: Array<{ variant: string; delivered: number }>; decision?: { decided_at: string | null } | null };
const report = async (id: string) => (await harness.request('GET', `/api/v1/notifications/${id}/report`, { key: project.api_key })).body?.data as Report | undefined;
const view = async (id: string) => (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as View | undefined;

describe('A/B sends', () => {
  it('refuse bad variants with 422 naming the field', async () => {
    const response = await harness.request('POST', '/api/v1/notifications', {
      key: project.api_key,
      body: { notification: { targets: ['ab'], variants: [{ name: 'A', title: 'a', body: 'a' }, { name: 'A', title: 'b' }], holdout_percent: 10, test: { percent: 50, decide_after: 'soon', metric: 'open_rate' }, fallback: 'Z' } },
    });
    expect(response.status).toBe(422);
    expect(response.body!.errors).toEqual([
      'notification.variants[1].name: "A" is used by another variant',
      'notification.variants[1].title and notification.variants[1].body are required unless notification.variants[1].template is given',
      'notification.fallback: "Z" is not the name of a variant',
      'notification.test.decide_after: "soon" is not an ISO 8601 duration of days, hours, minutes and seconds (PT2H, P1DT30M, PT90S)',
    ]);
    const holdout = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { targets: ['ab'], title: 'x', body: 'y', holdout_percent: 60 } } });
    expect(holdout.status).toBe(422);
    // A variant that is no object (the fuzzer's null) is named, never read into (it was a 500).
    for (const path of ['/api/v1/notifications', '/api/v1/notifications/dry-run']) {
      const noObject = await harness.request('POST', path, { key: project.api_key, body: { notification: { targets: ['ab'], variants: [null, { name: 'B', template: 'missing' }] } } });
      expect(noObject.status).toBe(422);
      expect((noObject.body!.errors as string[]).join('\n')).toContain('variants[0]');
      // The same for a notification that is null (the fuzzer's next find).
      const noNotification = await harness.request('POST', path, { key: project.api_key, body: { notification: null } });
      expect(noNotification.status).toBe(422);
    }
  });

  // Before the decision test below, which moves the test clock a day on (the send here would read as expired).
  it('split 10,000 devices in the shares asked for, within statistical bounds, the holdout sent nothing and each other device once', async () => {
    const large = await harness.createProject('ab-large');
    await harness.fakes!.configure(large.id);
    const devices = devicesPerPlatform(10_000).filter((device) => device.platform === 'android');
    await seedTopicAudience(harness, large, devices, 'everyone');
    const titles = ['One', 'Two', 'Three'];
    const accepted = await harness.request('POST', '/api/v1/notifications', {
      key: large.api_key,
      body: { notification: { targets: ['everyone'], variants: titles.map((title, index) => ({ name: `V${index}`, title, body: 'Hello' })), holdout_percent: 10 } },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const id = (accepted.body!.data as { id: string }).id;

    let last: unknown;
    const done = await waitFor('the large A/B send sent', async () => {
      const response = await harness.request('GET', `/api/v1/notifications/${id}`, { key: large.api_key });
      const data = response.body?.data as (View & { counts: Record<string, number> }) | undefined;
      last = data;
      return data?.status === 'sent' ? data : undefined;
    }, 240_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; last read ${JSON.stringify(last)}; ${pushesOf(id).length} pushes`);
    });
    const total = devices.length;
    // The shares asked for: 10 % held out, the rest split evenly over three arms. Each observed count
    // lies within five standard deviations of its binomial mean (a false alarm about once in 1.7 million runs).
    const within = (observed: number, share: number) => Math.abs(observed - total * share) <= 5 * Math.sqrt(total * share * (1 - share));
    const heldOut = done.counts_by_variant?.holdout?.held_out ?? -1;
    expect(within(heldOut, 0.1), `held out ${heldOut}`).toBe(true);
    for (const name of ['V0', 'V1', 'V2']) {
      const targeted = done.counts_by_variant?.[name]?.targeted ?? -1;
      expect(within(targeted, 0.3), `${name} targeted ${targeted}`).toBe(true);
    }
    // The counts are the hash's placement, device by device, and every device is counted once.
    const plan = { variants: 3, holdoutPercent: 10 };
    const placed = new Map(devices.map(({ token }) => [token, assignDevice(plan, id, deviceIdFor(large.id, token))]));
    const expectedIn = (index: number) => [...placed.values()].filter((at) => at.kind === 'variant' && at.index === index).length;
    expect(heldOut).toBe([...placed.values()].filter((at) => at.kind === 'held_out').length);
    for (const index of [0, 1, 2]) expect(done.counts_by_variant?.[`V${index}`]?.delivered).toBe(expectedIn(index));
    expect(done.counts).toMatchObject({ targeted: total, delivered: total - heldOut, failed: 0 });

    // At the provider: the holdout nothing, every other device once, with its arm's title.
    const pushes = pushesOf(id);
    expect(pushes).toHaveLength(total - heldOut);
    const seen = new Set<string>();
    for (const push of pushes) {
      const token = push.message.token as string;
      const at = placed.get(token);
      expect(at?.kind, token).toBe('variant');
      expect((push.message.notification as { title: string }).title).toBe(titles[(at as { index: number }).index]);
      expect(seen.has(token), `${token} pushed twice`).toBe(false);
      seen.add(token);
    }
  }, 300_000);

  it('split the audience, hold the holdout out, and send the winner to the remainder once at decide_after', async () => {
    const accepted = await harness.request('POST', '/api/v1/notifications', {
      key: project.api_key,
      body: {
        notification: {
          targets: ['ab'],
          variants: [
            { name: 'A', title: 'Sale', body: 'Today only' },
            { name: 'B', title: 'Flash sale', body: 'Ends at midnight' },
          ],
          holdout_percent: 10,
          test: { percent: 50, decide_after: 'P1D', metric: 'open_rate' },
        },
      },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const id = (accepted.body!.data as { id: string }).id;

    // Where each device goes, as Herald computes it (a hash of notification and device ids).
    const plan = { variants: 2, holdoutPercent: 10, testPercent: 50 };
    const expected = new Map(tokens.map((token) => [token, assignDevice(plan, id, deviceIds.get(token)!)]));
    const inVariant = (index: number) => tokens.filter((token) => { const at = expected.get(token)!; return at.kind === 'variant' && at.index === index; });
    const holdout = tokens.filter((token) => expected.get(token)!.kind === 'held_out');
    const remainder = tokens.filter((token) => expected.get(token)!.kind === 'remainder');
    // Generous bounds (binomial, n = 200): 20 held out, 45 per variant, 90 waiting.
    expect(holdout.length).toBeGreaterThan(4);
    expect(holdout.length).toBeLessThan(40);
    for (const index of [0, 1]) expect(inVariant(index).length).toBeGreaterThan(20);
    expect(remainder.length).toBeGreaterThan(55);

    const tested = inVariant(0).length + inVariant(1).length;
    await waitFor('the test pushes', () => pushesOf(id).length >= tested, 60_000);
    const titles = new Map(pushesOf(id).map((push) => [push.message.token as string, (push.message.notification as { title: string }).title]));
    for (const token of inVariant(0)) expect(titles.get(token)).toBe('Sale');
    for (const token of inVariant(1)) expect(titles.get(token)).toBe('Flash sale');
    for (const token of [...holdout, ...remainder]) expect(titles.has(token)).toBe(false);

    const counted = await waitFor('counts by variant', async () => {
      const data = await view(id);
      const by = data?.counts_by_variant;
      return by?.A?.delivered === inVariant(0).length && by.B?.delivered === inVariant(1).length && by.holdout?.held_out === holdout.length ? data : undefined;
    }, 60_000);
    expect(counted.status).toBe('sending');
    expect(counted.decision).toBeUndefined();
    expect((await report(id))?.decision).toBeNull();

    // B's devices open it, A's do not: B wins.
    for (const token of inVariant(1)) expect((await harness.request('PUT', `/api/v1/notifications/${id}/open`, { body: { project_id: project.id, token } })).status).toBe(204);
    await waitFor('opens counted under B', async () => (await view(id))?.counts_by_variant?.B?.opened === inVariant(1).length, 60_000);

    await clock.offsetBy(86_400_000 + 60_000);
    const decided = await waitFor('the decision', async () => (await view(id))?.decision, 60_000);
    expect(decided).toMatchObject({ metric: 'open_rate', best: 'B', chosen: 'B', significant: true, reason: 'significant' });
    expect(decided.p_value as number).toBeLessThan(0.05);

    await waitFor('the remainder pushes', () => pushesOf(id).length >= tested + remainder.length, 60_000);
    const final = await waitFor('sent', async () => { const data = await view(id); return data?.status === 'sent' ? data : undefined; }, 60_000);
    const pushes = pushesOf(id);
    expect(pushes).toHaveLength(tested + remainder.length);
    const perToken = new Map<string, string[]>();
    for (const push of pushes) perToken.set(push.message.token as string, [...(perToken.get(push.message.token as string) ?? []), (push.message.notification as { title: string }).title]);
    for (const token of remainder) expect(perToken.get(token)).toEqual(['Flash sale']);
    for (const token of holdout) expect(perToken.has(token)).toBe(false);
    expect(final.counts_by_variant?.remainder?.delivered).toBe(remainder.length);
    expect(final.counts_by_variant?.holdout?.held_out).toBe(holdout.length);

    // The report's funnel per variant: B's opens, the remainder sent B, the holdout recorded and sent nothing (its opens are not Herald's to know).
    const funnels = await waitFor('the report by variant', async () => {
      const data = await report(id);
      return data?.variants?.find((row) => row.variant === 'remainder')?.delivered === remainder.length ? data : undefined;
    });
    const variant = (name: string, kind: string, devices: number, opened: number) => ({ variant: name, kind, targeted: devices, delivered: devices, failed: 0, opened, open_rate: opened / devices, held_out: 0 });
    expect(funnels.variants).toEqual([
      variant('A', 'variant', inVariant(0).length, 0),
      variant('B', 'variant', inVariant(1).length, inVariant(1).length),
      variant('remainder', 'remainder', remainder.length, 0),
      { variant: 'holdout', kind: 'holdout', targeted: holdout.length, delivered: 0, failed: 0, opened: 0, open_rate: null, held_out: holdout.length },
    ]);
    expect(funnels.decision).toMatchObject({ winner: 'B', best: 'B', significant: true, reason: 'significant' });
    expect(Date.parse(funnels.decision!.decided_at!)).toBeGreaterThan(0);

    // The holdout is exportable: each of its devices has a held_out receipt; a variant's receipt names its variant.
    const heldReceipts = await waitFor('the holdout receipts', async () => {
      const rows = (await harness.request('GET', `/api/v1/notifications/${id}/receipts?outcome=held_out&limit=100`, { key: project.api_key })).body?.data as Array<{ device_id: string; variant?: string }> | undefined;
      return rows?.length === holdout.length ? rows : undefined;
    });
    expect(new Set(heldReceipts.map((row) => row.device_id))).toEqual(new Set(holdout.map((token) => deviceIds.get(token))));
    const receipt = (await harness.request('GET', `/api/v1/devices/${deviceIds.get(inVariant(0)[0]!)!}/receipts`, { key: project.api_key })).body?.data as Array<{ notification_id: string; variant?: string }>;
    expect(receipt.find((row) => row.notification_id === id)?.variant).toBe('A');
  });

});
