import { describe, expect, it } from 'vitest';
import { createEvent, type DeliveryReportedV2, type HeraldEvent } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { DeviceResult } from '../providers/push-message.ts';
import type { WebPushTarget } from '../providers/webpush-client.ts';
import type { ProviderClients, WebPushProject } from './provider-clients.ts';
import { senderHandler } from './sender.ts';
import { joinSubscriptions, SUBSCRIPTION_REASONS, type StoredSubscription } from './webpush-sender.ts';

const subscription = (n: number): StoredSubscription => ({ endpoint: `https://push.example/${n}`, p256dh: `p${n}`, auth: `a${n}`, key_id: 'k1' });

describe('joinSubscriptions', () => {
  it('sends to a device whose stored subscription has the batch endpoint, and leaves the others retryable', () => {
    const stored = new Map([
      ['d1', subscription(1)],
      ['d2', subscription(9)],
    ]);
    const { targets, waiting } = joinSubscriptions(
      [
        { device_id: 'd1', token: 'https://push.example/1' },
        { device_id: 'd2', token: 'https://push.example/2' },
        { device_id: 'd3', token: 'https://push.example/3' },
      ],
      stored,
    );
    expect(targets).toEqual([{ device_id: 'd1', endpoint: 'https://push.example/1', p256dh: 'p1', auth: 'a1', key_id: 'k1' }]);
    expect(waiting).toEqual([
      { device_id: 'd2', outcome: 'retryable', reason: SUBSCRIPTION_REASONS.changed },
      { device_id: 'd3', outcome: 'retryable', reason: SUBSCRIPTION_REASONS.unknown },
    ]);
  });

  it("gives each target its device's own message when the batch has per-device content", () => {
    const hi = { notification_id: 'n', project_id: 'p', title: 'Hi', body: 'b' };
    const hallo = { ...hi, title: 'Hallo' };
    const { targets } = joinSubscriptions(
      [
        { device_id: 'd1', token: 'https://push.example/1' },
        { device_id: 'd2', token: 'https://push.example/2' },
      ],
      new Map([
        ['d1', subscription(1)],
        ['d2', subscription(2)],
      ]),
      (device) => (device.device_id === 'd1' ? hi : hallo),
    );
    expect(targets.map((target) => target.message)).toEqual([hi, hallo]);
  });
});

function webBatch(id: string, projectId: string, devices: number[], lane = 'herald.deliveries.webpush'): ConsumedEvent {
  return {
    event: createEvent<'DeliveryBatch'>(
      'DeliveryBatch',
      { batch_id: id, notification_id: 'n-1', provider: 'webpush', sequence: 0, message: { title: 't', body: 'b' }, devices: devices.map((n) => ({ device_id: `d${n}`, token: `https://push.example/${n}` })) },
      { project_id: projectId },
    ),
    topic: lane,
    partition: 0,
    offset: 0,
  };
}

/** A push service's answers by device: d1 delivered, d2 gone, d3 VAPID refused, anything else 503. */
function fakeProject(sent: WebPushTarget[]): WebPushProject {
  const answer: Record<string, Omit<DeviceResult, 'device_id'>> = {
    d1: { outcome: 'delivered' },
    d2: { outcome: 'token-invalid', reason: 'SubscriptionGone' },
    d3: { outcome: 'rejected', reason: 'VapidRejected' },
  };
  return {
    keys: { subject: 'mailto:a@example.com', keys: [{ id: 'k1', public_key: 'pub', private_key: 'priv' }] },
    close: async () => undefined,
    client: {
      vapid: undefined as never,
      close: () => undefined,
      send: async (_keys, targets) => {
        sent.push(...targets);
        return targets.map((target) => ({ device_id: target.device_id, ...(answer[target.device_id] ?? { outcome: 'retryable' as const, reason: 'ServiceUnavailable' }) }));
      },
    },
  };
}

function recordingLogger(errors: string[]): Logger {
  const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: (_fields: unknown, message: string) => errors.push(message), child: () => logger };
  return logger as unknown as Logger;
}

const reported = (outputs: ReadonlyArray<{ event: HeraldEvent }>) => outputs.map((output) => output.event).find((event): event is DeliveryReportedV2 => event.type === 'DeliveryReported')!;

describe('the webpush sender', () => {
  it('reads the batch subscriptions in one query, maps the answers, deactivates a gone subscription and logs a VAPID refusal once per project', async () => {
    const sent: WebPushTarget[] = [];
    const lookups: string[][] = [];
    const errors: string[] = [];
    const project = fakeProject(sent);
    const handle = senderHandler({
      provider: 'webpush',
      clients: { webpush: async () => project } as unknown as ProviderClients,
      webPushSubscriptions: async (_projectId, ids) => {
        lookups.push([...ids]);
        return new Map(ids.map((id) => [id, subscription(Number(id.slice(1)))]));
      },
      isCancelled: () => false,
      policy: { deadlineMs: 1_000, minMs: 1, maxMs: 1, maxAttempts: 1 },
      clock: { now: () => 0, sleep: async () => undefined, random: () => 0 },
      logger: recordingLogger(errors),
      lane: 'retry',
    });
    const context = { heartbeat: async () => undefined };
    const outputs = await handle([webBatch('n-1:webpush:0:0', 'p-1', [1, 2, 3])], context);
    expect(lookups).toEqual([['d1', 'd2', 'd3']]);
    expect(sent.map((target) => target.endpoint)).toEqual(['https://push.example/1', 'https://push.example/2', 'https://push.example/3']);
    const report = reported(outputs);
    expect(report.data.provider).toBe('webpush');
    expect(report.data.results.map((result) => [result.device_id, result.outcome, result.reason])).toEqual([
      ['d1', 'delivered', undefined],
      ['d2', 'invalid', 'SubscriptionGone'],
      ['d3', 'failed', 'VapidRejected'],
    ]);
    const deactivated = outputs.map((output) => output.event).filter((event) => event.type === 'DeviceDeactivated');
    expect(deactivated.map((event) => [event.data.device_id, event.data.provider, event.data.reason, event.version])).toEqual([['d2', 'webpush', 'SubscriptionGone', 2]]);

    await handle([webBatch('n-1:webpush:0:1', 'p-1', [3])], context);
    expect(errors.filter((message) => message.includes('VAPID'))).toHaveLength(1);
    await handle([webBatch('n-9:webpush:0:0', 'p-2', [3])], context);
    expect(errors.filter((message) => message.includes('VAPID'))).toHaveLength(2);
  });

  it('retries a device whose subscription the read model does not hold yet, asking again for it alone, and fails a project without keys', async () => {
    const sent: WebPushTarget[] = [];
    const lookups: string[][] = [];
    const project = fakeProject(sent);
    let projected = false;
    let now = 0;
    const handle = senderHandler({
      provider: 'webpush',
      clients: { webpush: async (projectId: string) => (projectId === 'bare' ? undefined : project) } as unknown as ProviderClients,
      webPushSubscriptions: async (_projectId, ids) => {
        lookups.push([...ids]);
        const held = ids.filter((id) => id === 'd1' || projected);
        projected = true;
        return new Map(held.map((id) => [id, subscription(Number(id.slice(1)))]));
      },
      isCancelled: () => false,
      policy: { deadlineMs: 1_000, minMs: 100, maxMs: 100, maxAttempts: 3 },
      // Time moves only by the loop's waits.
      clock: { now: () => now, sleep: async (ms: number) => void (now += ms), random: () => 0 },
      logger: recordingLogger([]),
      lane: 'retry',
    });
    const context = { heartbeat: async () => undefined };
    // d5 is answered 503 by this fake once it is sent: it stays open until its attempts run out.
    const report = reported(await handle([webBatch('n-2:webpush:0:0', 'p-1', [1, 5])], context));
    expect(lookups[0]).toEqual(['d1', 'd5']);
    expect(lookups[1]).toEqual(['d5']);
    expect(report.data.results.map((result) => [result.device_id, result.outcome])).toEqual([
      ['d1', 'delivered'],
      ['d5', 'failed'],
    ]);
    expect(sent.filter((target) => target.device_id === 'd5').length).toBeGreaterThan(0);

    const bare = reported(await handle([webBatch('n-3:webpush:0:0', 'bare', [1])], context));
    expect(bare.data.results).toEqual([{ device_id: 'd1', outcome: 'failed', reason: 'NoWebPushKeys', attempts: 1 }]);
  });

  it("reads the project's keys again when a device subscribed with a key the cached ones lack (a rotation not seen yet)", async () => {
    const signedWith: string[][] = [];
    const project = (keyIds: string[]): WebPushProject => ({
      keys: { subject: 'mailto:a@example.com', keys: keyIds.map((id) => ({ id, public_key: 'pub', private_key: 'priv' })) },
      close: async () => undefined,
      client: {
        vapid: undefined as never,
        close: () => undefined,
        send: async (keys, targets) => {
          signedWith.push(keys.keys.map((key) => key.id));
          return targets.map((target) => ({ device_id: target.device_id, outcome: 'delivered' as const }));
        },
      },
    });
    const reads: Array<boolean | undefined> = [];
    const handle = senderHandler({
      provider: 'webpush',
      clients: {
        webpush: async (_projectId: string, options?: { fresh?: boolean }) => {
          reads.push(options?.fresh);
          return options?.fresh === true ? project(['k1', 'k2']) : project(['k1']);
        },
      } as unknown as ProviderClients,
      webPushSubscriptions: async (_projectId, ids) => new Map(ids.map((id) => [id, { ...subscription(Number(id.slice(1))), key_id: id === 'd2' ? 'k2' : 'k1' }])),
      isCancelled: () => false,
      policy: { deadlineMs: 1_000, minMs: 1, maxMs: 1, maxAttempts: 1 },
      clock: { now: () => 0, sleep: async () => undefined, random: () => 0 },
      logger: recordingLogger([]),
      lane: 'retry',
    });
    const context = { heartbeat: async () => undefined };
    await handle([webBatch('n-4:webpush:0:0', 'p-1', [1])], context);
    expect(reads).toEqual([undefined]);
    const report = reported(await handle([webBatch('n-4:webpush:0:1', 'p-1', [1, 2])], context));
    expect(reads).toEqual([undefined, undefined, true]);
    expect(signedWith.at(-1)).toEqual(['k1', 'k2']);
    expect(report.data.results.map((result) => result.outcome)).toEqual(['delivered', 'delivered']);
  });
});
