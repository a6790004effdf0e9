import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignDevice } from '@herald/templates';
import { createTestClock, createTopics, registerDevices, type TestClock, outputTails, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * A/B sends through restarts of the delivery process between their test
 * phase and their decision (the ab-test e2e's set-up: FCM fake, schedule
 * clock moved by a file). Two sends wait for their decision at once; the
 * delivery process is killed -9 (the first decision then comes after the
 * restart), then stopped with SIGTERM while the clock passes the second's
 * `decide_after` (it is decided at start-up). Each remainder device gets the
 * winner exactly once, none is missed, and no test-phase device gets a
 * second push.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let clock: TestClock;
const DEVICES = 200;
const DAY_MS = 86_400_000;
const tokens = Array.from({ length: DEVICES }, (_, index) => `abr-device-${String(index).padStart(3, '0')}`);
let deviceIds: Map<string, string>;

beforeAll(async () => {
  clock = await createTestClock();
  harness = await startApiHarness('ab-restart', { delivery: true, apiEnv: clock.env, deliveryEnv: { ...clock.env, DELIVERY_SCHEDULER_POLL_MS: '100', DELIVERY_SCHEDULER_IDLE_MS: '100' } });
  project = await harness.createProject('ab-restart');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['abr']);
  deviceIds = await registerDevices(harness, project, tokens, { platform: 'android', topics: ['abr'] });
}, 300_000);

afterAll(async () => {
  await harness?.stop();
  await clock?.remove();
});

const titleOf = (push: { message: Record<string, unknown> }) => (push.message.notification as { title: string }).title;
const pushesOf = (id: string) => harness.fakes!.fcm.deliveries.filter((delivery) => (delivery.message.data as { notification_id?: string } | undefined)?.notification_id === id);
type View = { status: string; counts_by_variant?: Record<string, { targeted: number; delivered: number; opened: number; held_out?: number }>; decision?: { chosen?: string } };
const view = async (id: string) => (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as View | undefined;

interface AbSend {
  id: string;
  /** Tokens by where the plan puts them: variant A, variant B, the remainder, the holdout. */
  groups: { A: string[]; B: string[]; remainder: string[]; holdout: string[] };
}

/** Sends an A/B test deciding after `decideAfter`, waits for its test phase, and has B's devices open it (B wins). */
async function testPhase(decideAfter: string): Promise<AbSend> {
  const accepted = await harness.request('POST', '/api/v1/notifications', {
    key: project.api_key,
    body: {
      notification: {
        targets: ['abr'],
        variants: [
          { name: 'A', title: 'Sale', body: 'Today only' },
          { name: 'B', title: 'Flash sale', body: 'Ends at midnight' },
        ],
        holdout_percent: 10,
        test: { percent: 50, decide_after: decideAfter, metric: 'open_rate' },
      },
    },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  const id = (accepted.body!.data as { id: string }).id;
  const plan = { variants: 2, holdoutPercent: 10, testPercent: 50 };
  const groups: AbSend['groups'] = { A: [], B: [], remainder: [], holdout: [] };
  for (const token of tokens) {
    const at = assignDevice(plan, id, deviceIds.get(token)!);
    if (at.kind === 'variant') groups[at.index === 0 ? 'A' : 'B'].push(token);
    else if (at.kind === 'held_out') groups.holdout.push(token);
    else groups.remainder.push(token);
  }
  expect(groups.remainder.length).toBeGreaterThan(55);
  const tested = groups.A.length + groups.B.length;
  await waitFor(`the test pushes of ${id}`, () => pushesOf(id).length >= tested, 90_000);
  await waitFor(`the test phase of ${id} counted`, async () => {
    const by = (await view(id))?.counts_by_variant;
    return by?.A?.delivered === groups.A.length && by.B?.delivered === groups.B.length;
  }, 90_000);
  // An open is taken once the device's receipt is projected (its own read model, which may trail the counts).
  for (const token of groups.B) {
    await waitFor(`the open of ${token}`, async () => (await harness.request('PUT', `/api/v1/notifications/${id}/open`, { body: { project_id: project.id, token } })).status === 204, 60_000);
  }
  await waitFor(`opens of ${id} counted under B`, async () => (await view(id))?.counts_by_variant?.B?.opened === groups.B.length, 60_000);
  expect((await view(id))?.decision).toBeUndefined();
  return { id, groups };
}

/** Once sent: every device of the remainder got B once, the test phase its own variant once, the holdout nothing. */
async function remainderOnce(send: AbSend): Promise<void> {
  const { id, groups } = send;
  const decided = await waitFor(`the decision of ${id}`, async () => (await view(id))?.decision, 90_000).catch((error: unknown) => {
    process.stderr.write(outputTails(harness, 60));
    throw error;
  });
  expect(decided).toMatchObject({ chosen: 'B' });
  const final = await waitFor(`${id} sent`, async () => {
    const data = await view(id);
    return data?.status === 'sent' && data.counts_by_variant?.remainder?.delivered === groups.remainder.length ? data : undefined;
  }, 90_000);
  const perToken = new Map<string, string[]>();
  for (const push of pushesOf(id)) perToken.set(push.message.token as string, [...(perToken.get(push.message.token as string) ?? []), titleOf(push)]);
  const wrong = (expected: string[], list: string[]) => list.filter((token) => JSON.stringify(perToken.get(token)) !== JSON.stringify(expected));
  expect(wrong(['Flash sale'], groups.remainder)).toEqual([]);
  expect(wrong(['Sale'], groups.A)).toEqual([]);
  expect(wrong(['Flash sale'], groups.B)).toEqual([]);
  expect(groups.holdout.filter((token) => perToken.has(token))).toEqual([]);
  expect(pushesOf(id)).toHaveLength(groups.A.length + groups.B.length + groups.remainder.length);
  expect(final.counts_by_variant?.remainder?.delivered).toBe(groups.remainder.length);
}

describe('A/B sends through delivery restarts between test phase and decision', () => {
  it('send the winner to the remainder exactly once after a kill -9 and after a SIGTERM', async () => {
    const killed = await testPhase('P1D');
    const stopped = await testPhase('P1DT1H');

    // kill -9 with both waiting for their decision; the first becomes due after the restart.
    await harness.restartDelivery!('SIGKILL');
    await clock.offsetBy(DAY_MS + 60_000);
    await remainderOnce(killed);
    expect((await view(stopped.id))?.decision).toBeUndefined();

    // SIGTERM; the second becomes due while no delivery process runs: it is decided at start-up.
    await harness.restartDelivery!('SIGTERM', { whileDown: () => clock.offsetBy(DAY_MS + 3_600_000 + 60_000) });
    await remainderOnce(stopped);

    // The first's remainder was not sent again by the second restart.
    await remainderOnce(killed);
    process.stdout.write(`ab-restart: remainders ${killed.groups.remainder.length} (after kill -9) and ${stopped.groups.remainder.length} (after SIGTERM), each once\n`);
  }, 600_000);
});
