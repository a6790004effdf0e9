import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, type DeliveryBatchV1, type HeraldEvent, type NotificationRequestedV1 } from '@herald/events';
import { ensureTopics, type EventProducer } from '@herald/kafka';
import { ReadModelRegistry, type DeviceDocument } from '@herald/mongo';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { fanOut, WORK_TOPIC } from './fanout.ts';
import { FanoutProgressStore } from './progress.ts';

/**
 * A fan-out interrupted mid-audience, over real Kafka and FerretDB, while
 * the audience moves under it (devices deactivated by the campaign's own
 * invalid tokens, new devices registering): the restart must lose no
 * device, never reuse a batch id for other devices, and repeat at most the
 * group that was going out.
 */
let env: TestEnv;
const project_id = 'project-fanout';
const PER_GROUP = 400;

beforeAll(async () => {
  env = await createTestEnv('fanout');
  await ensureTopics(env.kafka, { partitions: 2 });
});
afterAll(async () => {
  await env?.close();
});

function deviceDoc(token: string, n: number): DeviceDocument {
  const now = new Date().toISOString();
  return {
    _id: deviceIdFor(project_id, token),
    project_id,
    position: { partition: 0, offset: n },
    token,
    platform: n % 2 === 0 ? 'ios' : 'android',
    status: 'active',
    metadata: { campaign: 'spring' },
    identifiers: {},
    identifier_values: [],
    topics: [],
    created_at: now,
    updated_at: now,
    registered_at: now,
  };
}

/** The real producer, recording what goes out; it can die right after Kafka acknowledged the n-th group. */
function recordingProducer(dieAfterGroup?: number) {
  const groups: DeliveryBatchV1[][] = [];
  const announced: HeraldEvent[] = [];
  const producer: Pick<EventProducer, 'publish'> = {
    async publish(events, topic) {
      await env.producer.publish(events, topic);
      if (topic === undefined) {
        announced.push(...events);
        return;
      }
      // A group is published as one call per work topic, apns first.
      if (topic === WORK_TOPIC.apns) groups.push([]);
      groups.at(-1)!.push(...(events as DeliveryBatchV1[]));
      if (topic === WORK_TOPIC.fcm && groups.length === dieAfterGroup) throw new Error('killed after the group was acknowledged');
    },
  };
  return { producer, groups, announced };
}

describe('fan-out restart', () => {
  it('resumes after the last recorded group and loses no device while the audience moves', async () => {
    const devices = await new ReadModelRegistry(env.mongo.db).collection<DeviceDocument>('devices');
    await devices.insertMany(Array.from({ length: 2_000 }, (_, n) => deviceDoc(`token-${n}`, n)));
    const request: NotificationRequestedV1 = createEvent(
      'NotificationRequested',
      { notification_id: 'n-restart', title: 'Hi', body: 'there', targets: [{ metadata: { campaign: 'spring' } }] },
      { project_id },
    );
    const deps = (producer: Pick<EventProducer, 'publish'>) => ({
      producer,
      readModels: new ReadModelRegistry(env.mongo.db),
      progress: new FanoutProgressStore(env.mongo.db),
      logger: env.logger,
      devicesPerGroup: PER_GROUP,
    });

    const first = recordingProducer(3);
    await expect(fanOut(deps(first.producer), request)).rejects.toThrow('killed');
    expect(first.groups).toHaveLength(3);

    // While it was down: 30 devices of the first group were deactivated (shifting every later position), 10 new ones registered.
    const firstGroupIds = first.groups[0]!.flatMap((batch) => batch.data.devices.map((d) => d.device_id));
    await devices.updateMany({ _id: { $in: firstGroupIds.slice(0, 30) } }, { $set: { status: 'inactive' } });
    await devices.insertMany(Array.from({ length: 10 }, (_, n) => deviceDoc(`late-${n}`, 5_000 + n)));

    const second = recordingProducer();
    const targeted = await fanOut(deps(second.producer), request);

    const batches = [...first.groups.flat(), ...second.groups.flat()];
    const reached = new Map<string, number>();
    for (const batch of batches) for (const { device_id } of batch.data.devices) reached.set(device_id, (reached.get(device_id) ?? 0) + 1);
    const active = await devices.find({ project_id, status: 'active' }).project<{ _id: string; token: string }>({ _id: 1, token: 1 }).toArray();
    expect(active).toHaveLength(1_980);
    // Every device of the original audience still active is reached; a late
    // one is reached when it sorts past the point the fan-out resumed from
    // (as a device registering behind a running cursor would be missed too).
    const resumedAfter = first.groups[1]!.flatMap((batch) => batch.data.devices.map((d) => d.device_id)).sort().at(-1)!;
    const missed = active.filter(({ _id }) => !reached.has(_id));
    expect(missed.filter(({ token }) => token.startsWith('token-'))).toEqual([]);
    expect(missed.every(({ _id }) => _id < resumedAfter)).toBe(true);

    // A batch id always names the same devices, so a sender's "already sent" is never wrong.
    const contentById = new Map<string, string>();
    for (const batch of batches) {
      const content = JSON.stringify(batch.data.devices);
      expect(contentById.get(batch.data.batch_id) ?? content).toBe(content);
      contentById.set(batch.data.batch_id, content);
    }
    // Only the group that was going out at the crash is queued twice.
    const orphan = new Set(first.groups[2]!.flatMap((batch) => batch.data.devices.map((d) => d.device_id)));
    const repeated = [...reached].filter(([, times]) => times > 1).map(([id]) => id);
    expect(repeated.length).toBeGreaterThan(0);
    expect(repeated.length).toBeLessThanOrEqual(PER_GROUP);
    expect(repeated.every((id) => orphan.has(id))).toBe(true);
    // Targeted: the two recorded groups plus everything read after the restart.
    const recordedGroups = first.groups.slice(0, 2).flat().reduce((sum, batch) => sum + batch.data.devices.length, 0);
    const afterRestart = second.groups.flat().reduce((sum, batch) => sum + batch.data.devices.length, 0);
    expect(targeted.apns + targeted.fcm).toBe(recordedGroups + afterRestart);
    expect(second.announced).toMatchObject([{ type: 'NotificationDispatched', data: { notification_id: 'n-restart', targeted } }]);

    // A redelivered request after the dispatch queues nothing and announces the same counts.
    const third = recordingProducer();
    expect(await fanOut(deps(third.producer), request)).toEqual(targeted);
    expect(third.groups).toEqual([]);
    expect(third.announced).toMatchObject([{ type: 'NotificationDispatched', data: { targeted } }]);
  });
});
