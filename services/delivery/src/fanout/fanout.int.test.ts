import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type DeliveryBatchV1, type FanoutStepV1, type HeraldEvent, type NotificationRequestedV1 } from '@herald/events';
import { ensureTopics, type EventProducer } from '@herald/kafka';
import { ReadModelRegistry } from '@herald/mongo';
import type { DeviceDocument } from '@herald/projections';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { fanOutStep, itemOf, WORK_TOPIC, type StepItem } from './fanout.ts';
import { FanoutProgressStore } from './progress.ts';
import { keysetAudienceSource, StorageOrderAudienceSource } from './audience-source.ts';
import { CancellationStore } from '../cancellations.ts';
import { ScheduleStore } from '../schedule/schedule-store.ts';
import { systemClock } from '@herald/runtime';
import { deviceDoc } from './test-devices.ts';

/**
 * A fan-out killed in the middle of publishing a step, over real Kafka and
 * FerretDB, while the audience moves under it (devices deactivated by the
 * campaign's own invalid tokens, new devices registering): the retried step
 * republishes the same batch ids with the same devices, no device is lost,
 * and nothing outside the killed step is queued twice.
 */
let env: TestEnv;
const project_id = 'project-fanout';
const STEP = 400;

beforeAll(async () => {
  env = await createTestEnv('fanout');
  await ensureTopics(env.kafka, { partitions: 2 });
});
afterAll(async () => {
  await env?.close();
});

/** The real producer, recording what Kafka acknowledged; it can die before publishing the fcm batches of one step. */
function recordingProducer(dieInStep?: number) {
  const batches: Array<DeliveryBatchV1 & { step: number }> = [];
  const steps: FanoutStepV1[] = [];
  const announced: HeraldEvent[] = [];
  let current = 0;
  const producer: Pick<EventProducer, 'publish'> = {
    async publish(events, topic) {
      if (topic === WORK_TOPIC.campaign.fcm && current === dieInStep) throw new Error('killed mid-step');
      await env.producer.publish(events, topic);
      if (topic !== undefined) batches.push(...(events as DeliveryBatchV1[]).map((batch) => ({ ...batch, step: current })));
      else for (const event of events) (event.type === 'FanoutStep' ? steps : announced).push(event);
    },
  };
  /** Runs work items as the consumer would: each step's continuation comes back as the next item. */
  const run = async (deps: Parameters<typeof fanOutStep>[0], first: StepItem) => {
    let item: StepItem | undefined = first;
    while (item !== undefined) {
      current = item.step;
      const before = steps.length;
      await fanOutStep(deps, item);
      item = steps.length > before ? itemOf(steps.at(-1)!) : undefined;
    }
  };
  return { producer, batches, steps, announced, run };
}

describe.each([
  { reading: 'keyset pages (MongoDB)', campaign: 'spring-keyset', audienceSource: keysetAudienceSource },
  { reading: 'a held storage-order scan (FerretDB)', campaign: 'spring-scan', audienceSource: () => new StorageOrderAudienceSource() },
])('fan-out restart, reading $reading', ({ campaign, audienceSource }) => {
  it('replays the killed step under the same batch ids with the same devices and loses no device while the audience moves', async () => {
    const devices = await new ReadModelRegistry(env.mongo.db).collection<DeviceDocument>('devices');
    await devices.insertMany(Array.from({ length: 2_000 }, (_, n) => deviceDoc(project_id, `${campaign}-token-${n}`, n, { campaign })));
    const request: NotificationRequestedV1 = createEvent(
      'NotificationRequested',
      { notification_id: `n-restart-${campaign}`, title: 'Hi', body: 'there', targets: [{ metadata: { campaign } }] },
      { project_id },
    );
    const deps = (producer: Pick<EventProducer, 'publish'>) => ({
      producer,
      readModels: new ReadModelRegistry(env.mongo.db),
      // A new source per run: the restarted process holds no scan.
      audience: audienceSource(),
      progress: new FanoutProgressStore(env.mongo.db),
      cancellations: new CancellationStore(env.mongo.db),
      schedules: new ScheduleStore(env.mongo.db),
      defaultTimezone: async () => undefined,
      clock: systemClock,
      logger: env.logger,
      stepDevices: STEP,
      batchSize: 150,
    });

    const first = recordingProducer(2);
    await expect(first.run(deps(first.producer), itemOf(request))).rejects.toThrow('killed');
    expect(first.steps.map((step) => step.data.step)).toEqual([1, 2]);
    expect(first.batches.filter((batch) => batch.step === 2 && batch.data.provider === 'apns').length).toBeGreaterThan(0);

    // While it was down: 30 devices of the first step were deactivated, 10 of the killed step too, 10 new ones registered.
    const idsOf = (step: number) => first.batches.filter((batch) => batch.step === step).flatMap((batch) => batch.data.devices.map((d) => d.device_id));
    await devices.updateMany({ _id: { $in: [...idsOf(0).slice(0, 30), ...idsOf(2).slice(0, 10)] } }, { $set: { status: 'inactive' } });
    await devices.insertMany(Array.from({ length: 10 }, (_, n) => deviceDoc(project_id, `late-${campaign}-${n}`, 5_000 + n, { campaign })));

    // The consumer redelivers the killed step's record (its offset was never committed).
    const second = recordingProducer();
    await second.run(deps(second.producer), itemOf(first.steps.at(-1)!));

    const batches = [...first.batches, ...second.batches];
    // A batch id always names the same devices, so a sender's "already sent" is never wrong.
    const contentById = new Map<string, string>();
    for (const batch of batches) {
      const content = JSON.stringify(batch.data.devices);
      expect(contentById.get(batch.data.batch_id) ?? content, batch.data.batch_id).toBe(content);
      contentById.set(batch.data.batch_id, content);
    }
    // The replay republished the killed step's apns batches under their ids, and its fcm batches for the first time.
    const killedStep = (run: typeof first, provider: string) => run.batches.filter((b) => b.step === 2 && b.data.provider === provider).map((b) => b.data.batch_id);
    expect(killedStep(second, 'apns')).toEqual(killedStep(first, 'apns'));
    expect(killedStep(second, 'fcm').length).toBeGreaterThan(0);

    const reached = new Map<string, number>();
    for (const content of contentById.values()) for (const { device_id } of JSON.parse(content) as DeliveryBatchV1['data']['devices']) reached.set(device_id, (reached.get(device_id) ?? 0) + 1);
    // Counted per distinct batch id: no device is in two batches.
    expect([...reached.values()].every((times) => times === 1)).toBe(true);
    const active = await devices.find({ project_id, status: 'active', 'metadata.campaign': campaign }).project<{ _id: string; token: string }>({ _id: 1, token: 1 }).toArray();
    expect(active).toHaveLength(1_970);
    const missed = active.filter(({ _id }) => !reached.has(_id));
    // Only a late device sorting within what was planned before the restart can be missed (as behind a live cursor): the replay re-reads nothing.
    const plannedEnd = second.batches.filter((b) => b.step === 2).flatMap((b) => b.data.devices.map((d) => d.device_id)).sort().at(-1)!;
    expect(missed.map(({ token }) => token).filter((token) => !token.startsWith('late-'))).toEqual([]);
    expect(missed.every(({ _id }) => _id < plannedEnd)).toBe(true);

    const [dispatched] = second.announced as Array<Extract<HeraldEvent, { type: 'NotificationDispatched' }>>;
    expect(dispatched).toMatchObject({ type: 'NotificationDispatched', data: { notification_id: `n-restart-${campaign}` } });
    expect(dispatched!.data.targeted.apns + dispatched!.data.targeted.fcm).toBe(reached.size);
    expect(dispatched!.data.batches.apns + dispatched!.data.batches.fcm).toBe(contentById.size);

    // A redelivered old step is a no-op; a redelivered request re-announces the same counts and queues nothing.
    const third = recordingProducer();
    await third.run(deps(third.producer), itemOf(first.steps[0]!));
    await third.run(deps(third.producer), itemOf(request));
    expect(third.batches).toEqual([]);
    expect(third.steps).toEqual([]);
    expect(third.announced).toMatchObject([{ type: 'NotificationDispatched', data: dispatched!.data }]);
  });
});
