import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { readCounts, ModelDocuments, type StoreAdapter } from '@herald/mongo';
import { storeAdapter } from '@herald/mongo/testing';
import type { Collection } from 'mongodb';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { applyCounted, applyCounts, foldWithCounts } from './apply-counted.ts';
import { type CounterDocument, deviceCountsOf, type DeviceDocument, DEVICES_COUNT_KEY, devicesProjection, topicCountKey } from '@herald/read-models';
import { countedWrites } from './written-documents.ts';

/**
 * The counters the devices projection keeps equal a count of its documents,
 * on the real store: whatever the chunks, their partitions applied at once,
 * a chunk applied twice, or a crash between the counters and the documents.
 */
let env: TestEnv;
let devices: Collection<DeviceDocument>;
let store: StoreAdapter;
let counters: Collection<CounterDocument>;
/** A collection as the projection writes it (the collections may be wrapped to watch what is sent). */
const docs = <T extends { _id: string }>(collection: Collection<T>) => new ModelDocuments(collection, store);
const project_id = 'counted';
const offsets = new Map<number, number>();

const at = (partition: number, events: HeraldEvent[]): ConsumedEvent[] =>
  events.map((event) => {
    const offset = (offsets.get(partition) ?? -1) + 1;
    offsets.set(partition, offset);
    return { event, topic: TOPICS.deviceEvents, partition, offset };
  });
const register = (token: string, platform: 'ios' | 'android', topic_ids: string[] = []) =>
  createEvent('DeviceRegistered', { device_id: deviceIdFor(project_id, token), token, platform, topic_ids }, { project_id });
const unregister = (token: string) => createEvent('DeviceUnregistered', { device_id: deviceIdFor(project_id, token) }, { project_id });

/** What the counters should say: counted from the documents themselves. */
async function recount() {
  const docs = await devices.find({ project_id }).toArray();
  const by = (platform: string, status: string) => docs.filter((doc) => doc.platform === platform && doc.status === status).length;
  const subscribers = (topic: string) => docs.filter((doc) => doc.status === 'active' && doc.topics.includes(topic)).length;
  return {
    devices: {
      ios: { active: by('ios', 'active'), inactive: by('ios', 'inactive') },
      android: { active: by('android', 'active'), inactive: by('android', 'inactive') },
      web: { active: by('web', 'active'), inactive: by('web', 'inactive') },
      huawei: { active: by('huawei', 'active'), inactive: by('huawei', 'inactive') },
    },
    topics: { t1: subscribers('t1'), t2: subscribers('t2') },
  };
}

async function counted() {
  const counts = await readCounts(counters, project_id, [DEVICES_COUNT_KEY, topicCountKey('t1'), topicCountKey('t2')]);
  return {
    devices: deviceCountsOf(counts.get(DEVICES_COUNT_KEY)),
    topics: { t1: counts.get(topicCountKey('t1'))?.active ?? 0, t2: counts.get(topicCountKey('t2'))?.active ?? 0 },
  };
}

beforeAll(async () => {
  env = await createTestEnv('apply-counted');
  store = await storeAdapter(env.driverDb);
  devices = env.driverDb.collection<DeviceDocument>('devices_v1');
  counters = env.driverDb.collection<CounterDocument>('devices_v1_counts');
});
afterAll(async () => {
  await env?.close();
});

describe('applyCounted', () => {
  it('keeps counters equal to the documents, partitions applied at once', async () => {
    const chunks = [0, 1, 2].map((partition) =>
      at(partition, [
        ...Array.from({ length: 40 }, (_, n) => register(`p${partition}-${n}`, n % 3 === 0 ? 'android' : 'ios', n % 2 === 0 ? ['t1', 't2'] : ['t1'])),
        unregister(`p${partition}-3`),
        register(`p${partition}-5`, 'ios', ['t2']),
      ]),
    );
    await Promise.all(chunks.map((chunk) => applyCounted(devicesProjection, docs(devices), docs(counters), chunk)));
    const expected = await recount();
    expect(expected.devices.ios.active).toBeGreaterThan(0);
    expect(await counted()).toEqual(expected);
    expect(await counters.countDocuments({ project_id, key: DEVICES_COUNT_KEY })).toBe(3);
  });

  it('adds nothing when a chunk is applied again', async () => {
    const chunk = at(0, [register('again-1', 'ios', ['t1']), unregister('p0-7')]);
    await applyCounted(devicesProjection, docs(devices), docs(counters), chunk);
    const once = await counted();
    await applyCounted(devicesProjection, docs(devices), docs(counters), chunk);
    expect(await counted()).toEqual(once);
    expect(once).toEqual(await recount());
  });

  it('adds only what is new after a crash between the counters and the documents', async () => {
    const chunk = at(1, [register('crash-1', 'android', ['t2']), unregister('p1-9'), register('p1-9', 'ios', ['t1'])]);
    // The counters of the chunk were written, then the process died before the documents were.
    const { deltas } = foldWithCounts(devicesProjection, chunk, await docs(devices).byIds([...new Set(chunk.flatMap((record) => devicesProjection.documentIds(record)))]));
    await applyCounts(docs(counters), deltas);
    // The chunk comes again, longer (more records arrived meanwhile).
    const longer = [...chunk, ...at(1, [unregister('crash-1')])];
    await applyCounted(devicesProjection, docs(devices), docs(counters), longer);
    expect(await counted()).toEqual(await recount());
  });

  it('reads back only what it did not write itself when given the documents it wrote, and forgets them when an apply fails', async () => {
    const written = countedWrites<DeviceDocument, CounterDocument>();
    const finds: string[] = [];
    const counting = <T extends object>(collection: Collection<T>) =>
      new Proxy(collection, { get: (target, key, receiver) => (key === 'find' ? (...args: unknown[]) => (finds.push(target.collectionName), (target.find as (...a: unknown[]) => unknown)(...args)) : (Reflect.get(target, key, receiver) as unknown)) });
    const cachedDevices = counting(devices);
    const cachedCounters = counting(counters);

    await applyCounted(devicesProjection, docs(cachedDevices), docs(cachedCounters), at(2, [register('w-1', 'ios', ['t1']), register('w-2', 'android')]), written);
    expect(finds.length).toBeGreaterThan(0);
    finds.length = 0;
    // w-1 and the counters it changes (partition 2's devices and t1) were written by this consumer: nothing is read back.
    await applyCounted(devicesProjection, docs(cachedDevices), docs(cachedCounters), at(2, [unregister('w-1')]), written);
    expect(finds).toEqual([]);
    expect(await counted()).toEqual(await recount());

    // An apply that fails leaves the store unknown: the next one reads again.
    const failing = new Proxy(cachedDevices, { get: (target, key, receiver) => (key === 'bulkWrite' ? () => Promise.reject(new Error('store went away')) : (Reflect.get(target, key, receiver) as unknown)) });
    // (The counters were written before the documents failed; the chunk comes again, as after a crash.)
    const chunk = at(2, [register('w-1', 'ios')]);
    await expect(applyCounted(devicesProjection, docs(failing), docs(cachedCounters), chunk, written)).rejects.toThrow(/store went away/);
    expect(written.documents.size).toBe(0);
    finds.length = 0;
    await applyCounted(devicesProjection, docs(cachedDevices), docs(cachedCounters), chunk, written);
    expect(finds).toContain(devices.collectionName);
    expect(await counted()).toEqual(await recount());
  });
});
