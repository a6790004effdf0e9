import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS } from '@herald/events';
import { ensureTopics, type RunningConsumer } from '@herald/kafka';
import { ReadModelRegistry, readModelVersion } from '@herald/mongo';
import { AdminStore } from '@herald/admin';
import { devicesProjection } from '@herald/read-models';
import { runProjection } from '@herald/projections';
import { createTestEnv, waitForProjectionCaughtUp, type TestEnv } from '@herald/testing';
import { DeviceService } from './device-service.ts';

/**
 * DeviceService.counts: a project's devices by platform and status, from the
 * counters the devices projection keeps (here run over the real Kafka and
 * store), for the console and the device list's totals.
 */
let env: TestEnv;
let projection: RunningConsumer;
let service: DeviceService;

beforeAll(async () => {
  env = await createTestEnv('device-counts');
  await ensureTopics(env.kafka, { partitions: 3 });
  projection = await runProjection({ ...env, db: env.mongo.db }, devicesProjection, readModelVersion('devices', 1));
  await projection.ready;
  service = new DeviceService({ producer: env.producer, admin: new AdminStore(env.mongo.db), readModels: new ReadModelRegistry(env.mongo.db, { cacheMs: 0 }) });
});
afterAll(async () => {
  await projection?.stop();
  await env?.close();
});

describe('DeviceService.counts', () => {
  it("counts a project's devices by platform and status, apart from other projects", async () => {
    const register = (project_id: string, token: string, platform: 'ios' | 'android' | 'web') =>
      createEvent('DeviceRegistered', { device_id: deviceIdFor(project_id, token), token, platform }, { project_id });
    await env.producer.publish([
      ...Array.from({ length: 12 }, (_, n) => register('mine', `tok-${n}`, n < 5 ? 'ios' : 'android')),
      register('theirs', 'tok-x', 'ios'),
      register('mine', 'https://push.example.net/s/1', 'web'),
      createEvent('DeviceUnregistered', { device_id: deviceIdFor('mine', 'tok-1') }, { project_id: 'mine' }),
      createEvent('DeviceDeactivated', { device_id: deviceIdFor('mine', 'tok-7'), reason: 'Unregistered', provider: 'fcm' }, { project_id: 'mine' }),
    ]);
    // The counters are written before the documents the listing below reads: the projection catches up, then both are checked.
    await waitForProjectionCaughtUp(env.kafka, 'devices', TOPICS.deviceEvents);
    const none = { active: 0, inactive: 0 };
    expect(await service.counts('mine')).toEqual({ ios: { active: 4, inactive: 1 }, android: { active: 6, inactive: 1 }, web: { active: 1, inactive: 0 }, huawei: { active: 0, inactive: 0 } });
    expect(await service.counts('theirs')).toEqual({ ios: { active: 1, inactive: 0 }, android: none, web: none, huawei: none });
    expect(await service.counts('nobody')).toEqual({ ios: none, android: none, web: none, huawei: none });
    const listed = await service.list('mine', { status: 'inactive' });
    expect(listed.pagination.count).toBe(2);
    expect(listed.data.map((device) => device.token).sort()).toEqual(['tok-1', 'tok-7']);
    // The listing's total adds up every platform, the web device included.
    expect((await service.list('mine', { status: 'active' })).pagination.count).toBe(11);
  });
});
