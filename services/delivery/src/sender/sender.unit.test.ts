import { describe, expect, it } from 'vitest';
import { createEvent } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { createLogger } from '@herald/log';
import { InfrastructureError, isRebalance, RebalanceError } from '@herald/errors';
import type { DeviceTarget } from '../providers/push-message.ts';
import type { ProviderClients } from './provider-clients.ts';
import { RecentReports, senderHandler } from './sender.ts';

const batch = (id: string): ConsumedEvent => ({
  event: createEvent<'DeliveryBatch'>(
    'DeliveryBatch',
    { batch_id: id, notification_id: 'n-1', provider: 'apns', sequence: 0, message: { title: 't', body: 'b' }, devices: [{ device_id: 'd-1', token: '01'.repeat(32) }, { device_id: 'd-2', token: '02'.repeat(32) }] },
    { project_id: 'p-1' },
  ),
  topic: 'herald.deliveries.apns',
  partition: 0,
  offset: 0,
});

/** An apns sender with one attempt per push, no waits and no concurrency limit of note. */
const plainApnsSender = (clients: ProviderClients) =>
  senderHandler({
    provider: 'apns',
    clients,
    isCancelled: () => false,
    policy: { deadlineMs: 1_000, minMs: 1, maxMs: 1, maxAttempts: 1 },
    clock: { now: () => 0, sleep: async () => undefined, random: () => 0 },
    logger: createLogger({ name: 'test', level: 'silent' }),
  });

describe('senderHandler', () => {
  it('reports a batch taken again after a lost commit without sending it again', async () => {
    const { clients, sent } = recordingClients();
    const handle = plainApnsSender(clients);
    const context = { heartbeat: async () => undefined };
    const first = await handle([batch('n-1:apns:0:0')], context);
    const again = await handle([batch('n-1:apns:0:0')], context);
    expect(sent).toEqual(['01'.repeat(32), '02'.repeat(32)]);
    expect(again).toEqual(first);
    expect(first[0]!.event.type).toBe('DeliveryReported');

    await handle([batch('n-1:apns:0:1')], context);
    expect(sent).toHaveLength(4);
  });

  it('sends and reports a batch that appears twice in one chunk once', async () => {
    const { clients, sent } = recordingClients();
    const handle = plainApnsSender(clients);
    const outputs = await handle([batch('n-1:apns:0:0'), batch('n-1:apns:0:1'), batch('n-1:apns:0:0')], { heartbeat: async () => undefined });
    expect(sent).toHaveLength(4);
    expect(outputs.map((output) => (output.event.data as { batch_id: string }).batch_id)).toEqual(['n-1:apns:0:0', 'n-1:apns:0:1']);
  });
});

describe('senderHandler when its partition moves', () => {
  it('sends no batch still waiting for a send slot, and fails the chunk as a rebalance (its next owner sends the rest)', async () => {
    const { clients, sent } = recordingClients();
    const handle = senderHandler({
      provider: 'apns',
      clients,
      isCancelled: () => false,
      // One send slot: the second and third batches wait for it while the first is sent.
      concurrency: 1,
      policy: { deadlineMs: 1_000, minMs: 1, maxMs: 1, maxAttempts: 1 },
      clock: { now: () => 0, sleep: async () => undefined, random: () => 0 },
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    // The partition moves while the first batch is being sent.
    const context = { heartbeat: async () => undefined, active: () => sent.length === 0 };
    const chunk = [batch('n-1:apns:0:0'), batch('n-1:apns:0:1'), batch('n-1:apns:0:2')];
    await expect(handle(chunk, context)).rejects.toSatisfy(isRebalance);
    expect(sent).toEqual(['01'.repeat(32), '02'.repeat(32)]);
  });
});

describe('senderHandler on a paused notification', () => {
  it('holds the batch while paused and lets go of it, unsent, once the consumer stops (a stop never waits on a paused campaign)', async () => {
    const { clients, sent } = recordingClients();
    let running = true;
    let heartbeats = 0;
    const handle = senderHandler({
      provider: 'apns',
      clients,
      isCancelled: () => false,
      isPaused: () => true,
      changed: () => new Promise<void>((resolve) => setTimeout(resolve, 5)),
      policy: { deadlineMs: 1_000, minMs: 1, maxMs: 1, maxAttempts: 1 },
      clock: { now: () => 0, sleep: async () => undefined, random: () => 0 },
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    const context = {
      heartbeat: async () => {
        heartbeats += 1;
        if (heartbeats === 3) running = false;
      },
      active: () => running,
    };
    await expect(handle([batch('n-1:apns:0:0')], context)).rejects.toSatisfy(isRebalance);
    expect(heartbeats).toBe(3);
    expect(sent).toEqual([]);
  });
});

describe('senderHandler while the provider client is not available', () => {
  it('waits in place with back-off, heartbeating before each wait, then sends', async () => {
    const { clients: ready, sent } = recordingClients();
    let lookups = 0;
    const clients = {
      apns: async (projectId: string) => {
        lookups += 1;
        if (lookups <= 2) throw new InfrastructureError('MONGO_UNAVAILABLE', 'credential store down');
        return ready.apns(projectId);
      },
    } as unknown as ProviderClients;
    const slept: number[] = [];
    let heartbeats = 0;
    const handle = senderHandler({
      provider: 'apns',
      clients,
      isCancelled: () => false,
      policy: { deadlineMs: 1_000, minMs: 200, maxMs: 10_000, maxAttempts: 1 },
      clock: { now: () => 0, sleep: async (ms) => void slept.push(ms), random: () => 1 },
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    const out = await handle([batch('n-1:apns:0:0')], { heartbeat: async () => void (heartbeats += 1) });
    expect(out[0]!.event.type).toBe('DeliveryReported');
    expect(sent).toHaveLength(2);
    expect(slept).toEqual([200, 400]);
    expect(heartbeats).toBe(2);
  });

  it('stops waiting when the partition moves (the heartbeat throws a rebalance)', async () => {
    const clients = { apns: async () => Promise.reject(new InfrastructureError('MONGO_UNAVAILABLE', 'credential store down')) } as unknown as ProviderClients;
    const handle = plainApnsSender(clients);
    await expect(handle([batch('n-1:apns:0:0')], { heartbeat: async () => Promise.reject(new RebalanceError()) })).rejects.toSatisfy(isRebalance);
  });
});

/** An APNs client that accepts every device and records each token it sent to. */
function recordingClients() {
  const sent: string[] = [];
  const clients = {
    apns: async () => ({
      send: async (devices: readonly DeviceTarget[]) => {
        sent.push(...devices.map((device) => device.token));
        return devices.map((device) => ({ device_id: device.device_id, outcome: 'delivered' as const }));
      },
    }),
  } as unknown as ProviderClients;
  return { clients, sent };
}

/** An APNs client that accepts every device and records, per push, the fake clock's instant. */
function timedClients(clock: { now: number }) {
  const sentAt: number[] = [];
  const clients = {
    apns: async () => ({
      send: async (devices: readonly DeviceTarget[]) => {
        for (const _ of devices) sentAt.push(clock.now);
        return devices.map((device) => ({ device_id: device.device_id, outcome: 'delivered' as const }));
      },
    }),
  } as unknown as ProviderClients;
  return { clients, sentAt };
}

describe('senderHandler on a paced notification', () => {
  it("sends a backlog at this instance's share of the pace, heartbeating, not at once", async () => {
    const time = { now: 0 };
    const { clients, sentAt } = timedClients(time);
    let heartbeats = 0;
    const handle = senderHandler({
      provider: 'apns',
      clients,
      isCancelled: () => false,
      // 2 devices a batch at 1 push/s: the bucket holds one second's worth, so each batch after the first waits 2 s.
      pacePerSecond: () => 1,
      concurrency: 1,
      policy: { deadlineMs: 1_000, minMs: 1, maxMs: 1, maxAttempts: 1 },
      clock: { now: () => time.now, sleep: async (ms) => void (time.now += ms), random: () => 0 },
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    await handle([batch('n-1:apns:0:0'), batch('n-1:apns:0:1'), batch('n-1:apns:0:2')], { heartbeat: async () => void (heartbeats += 1) });
    expect(sentAt).toHaveLength(6);
    // The three batches book 2 pushes each from a bucket of 1 at 1/s: they may leave at 1 s, 3 s and 5 s.
    expect(Math.max(...sentAt)).toBeGreaterThanOrEqual(5_000);
    expect(heartbeats).toBeGreaterThan(0);
  });
});

describe('senderHandler under a project budget', () => {
  it("holds the project's campaign batches, of every notification, to the budget; the express lane is not held", async () => {
    const batchOf = (notification: string, id: string): ConsumedEvent => {
      const record = batch(id);
      return { ...record, event: { ...record.event, data: { ...(record.event.data as object), notification_id: notification } } as ConsumedEvent['event'] };
    };
    const run = async (lane: 'campaign' | 'express') => {
      const time = { now: 0 };
      const { clients, sentAt } = timedClients(time);
      const handle = senderHandler({
        provider: 'apns',
        clients,
        lane,
        isCancelled: () => false,
        budgetPerSecond: async () => 2,
        concurrency: 1,
        policy: { deadlineMs: 1_000, minMs: 1, maxMs: 1, maxAttempts: 1 },
        clock: { now: () => time.now, sleep: async (ms) => void (time.now += ms), random: () => 0 },
        logger: createLogger({ name: 'test', level: 'silent' }),
      });
      // Two notifications of the project, 2 devices a batch, at a budget of 2/s: one second's worth leaves at once, then one batch a second.
      await handle([batchOf('n-1', 'n-1:apns:0:0'), batchOf('n-2', 'n-2:apns:0:0'), batchOf('n-1', 'n-1:apns:0:1')], { heartbeat: async () => undefined });
      return Math.max(...sentAt);
    };
    expect(await run('campaign')).toBeGreaterThanOrEqual(2_000);
    expect(await run('express')).toBe(0);
  });
});

describe('RecentReports', () => {
  it('keeps the most recently set, up to its capacity', () => {
    const recent = new RecentReports(2);
    recent.set('a', []);
    recent.set('b', []);
    recent.set('a', []);
    recent.set('c', []);
    expect(recent.get('b')).toBeUndefined();
    expect(recent.get('a')).toEqual([]);
    expect(recent.get('c')).toEqual([]);
  });
});

/** An APNs client that answers d-2 500 (retryable) and d-3's malformed token never reaches. */
function troubledClients() {
  const sent: string[] = [];
  const clients = {
    apns: async () => ({
      send: async (devices: readonly DeviceTarget[]) => {
        sent.push(...devices.map((device) => device.device_id));
        return devices.map((device) => (device.device_id === 'd-2' ? { device_id: device.device_id, outcome: 'retryable' as const, reason: 'InternalServerError' } : { device_id: device.device_id, outcome: 'delivered' as const }));
      },
    }),
  } as unknown as ProviderClients;
  return { clients, sent };
}

describe('senderHandler with devices in trouble', () => {
  const troubled = (lane: 'express' | 'retry', retry?: { after: string; sends: number }): ConsumedEvent => {
    const devices = [
      { device_id: 'd-1', token: '01'.repeat(32) },
      { device_id: 'd-2', token: '02'.repeat(32) },
      { device_id: 'd-3', token: `${'03'.repeat(31)} 0` },
    ];
    const data = { batch_id: 'n-1:apns:0:0', notification_id: 'n-1', provider: 'apns' as const, sequence: 0, message: { title: 't', body: 'b' }, devices, ...(retry === undefined ? {} : { retry }) };
    return { event: createEvent<'DeliveryBatch'>('DeliveryBatch', data, { project_id: 'p-1' }), topic: lane === 'retry' ? 'herald.deliveries-retry.apns' : 'herald.deliveries-express.apns', partition: 0, offset: 0 };
  };
  const deps = (clients: ProviderClients, lane: 'express' | 'retry', slept: number[]) => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    return {
      provider: 'apns' as const,
      clients,
      isCancelled: () => false,
      lane,
      policy: { deadlineMs: 1_000, minMs: 100, maxMs: 100, maxAttempts: 2 },
      clock: { now: () => now, sleep: async (ms: number) => void (slept.push(ms), (now += ms)), random: () => 0 },
      logger: createLogger({ name: 'test', level: 'silent' }),
    };
  };

  it('sends once, never waits: reports the final devices (a malformed token invalid, unsent) and hands the retryable one to the retry lane', async () => {
    const { clients, sent } = troubledClients();
    const slept: number[] = [];
    const out = await senderHandler(deps(clients, 'express', slept))([troubled('express')], { heartbeat: async () => undefined });
    expect(sent).toEqual(['d-1', 'd-2']);
    expect(slept).toEqual([]);
    expect(out.map(({ event, topic }) => [event.type, topic])).toEqual([
      ['DeliveryReported', undefined],
      ['DeviceDeactivated', undefined],
      ['DeliveryBatch', 'herald.deliveries-retry.apns'],
    ]);
    const [reported, deactivated, handedOff] = out.map(({ event }) => event);
    expect(reported).toMatchObject({ data: { batch_id: 'n-1:apns:0:0', results: [{ device_id: 'd-1', outcome: 'delivered' }, { device_id: 'd-3', outcome: 'invalid', reason: 'MalformedToken' }] } });
    expect(deactivated).toMatchObject({ data: { device_id: 'd-3', reason: 'MalformedToken', provider: 'apns' } });
    expect(handedOff).toMatchObject({ data: { batch_id: 'n-1+retry:apns:0:0', devices: [{ device_id: 'd-2' }], retry: { sends: 1 } } });
  });

  it('in the retry lane, waits for the batch’s time, retries in place and reports every device final', async () => {
    const { clients, sent } = troubledClients();
    const slept: number[] = [];
    const batch = troubled('retry', { after: '2026-01-01T00:00:01.000Z', sends: 1 });
    const out = await senderHandler(deps(clients, 'retry', slept))([batch], { heartbeat: async () => undefined });
    expect(slept[0]).toBe(1_000);
    expect(sent.filter((id) => id === 'd-2').length).toBeGreaterThan(1);
    expect(out.map(({ event }) => event.type)).toEqual(['DeliveryReported', 'DeviceDeactivated']);
    expect(out[0]!.event).toMatchObject({ data: { results: [{ device_id: 'd-1', outcome: 'delivered', attempts: 2 }, { device_id: 'd-2', outcome: 'failed', reason: 'AttemptsExhausted', attempts: 2 }, { device_id: 'd-3', outcome: 'invalid' }] } });
  });
});
