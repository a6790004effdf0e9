import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceFilter, matchesAudience, type Audience, type ZoneFilter } from '@herald/audience';
import { createEvent, TOPICS } from '@herald/events';
import { ReadModelRegistry, type Collection } from '@herald/mongo';
import { foldRecords, MEMBERS_PER_PARTITION, topicMembersProjection, type DeviceDocument, type TopicMembersDocument } from '@herald/projections';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { StorageOrderAudienceSource, type PageRequest } from './audience-source.ts';
import { SmallAudienceSource } from './small-audience-source.ts';
import { deviceDoc } from './test-devices.ts';

/**
 * The small-audience lookups over the real store: whatever they answer is
 * exactly what the scan would have, and they hand over to the scan whenever
 * the member lists cannot tell.
 */
let env: TestEnv;
let devices: Collection<DeviceDocument>;
let topicMembers: Collection<TopicMembersDocument>;
const projectId = 'project-small-lookups';
const PARTITIONS = 3;

/** Devices as registered through partition `n % PARTITIONS`, with their member lists folded by the projection. */
async function register(docs: DeviceDocument[]): Promise<void> {
  await devices.insertMany(docs);
  const records = docs.map((doc, n) => ({
    event: createEvent('DeviceRegistered', { device_id: doc._id, token: doc.token, platform: doc.platform, topic_ids: doc.topics }, { project_id: doc.project_id }),
    topic: TOPICS.deviceEvents,
    partition: n % PARTITIONS,
    offset: n,
  }));
  const lists = foldRecords(topicMembersProjection, records, new Map());
  if (lists.size > 0) await topicMembers.insertMany([...lists.values()]);
}

const base = (n: number, topics: string[], extra: Partial<DeviceDocument> = {}): DeviceDocument => ({ ...deviceDoc(projectId, `small-${n}`, n, { tier: n % 2 === 0 ? 'gold' : 'free' }), topics, ...extra });
const audienceOf = (parts: Partial<Audience>): Audience => ({ projectId, topicIds: [], deviceRefs: [], metadataFilters: [], externalIds: [], ...parts });

function sources() {
  const scan = new StorageOrderAudienceSource();
  return { scan, small: new SmallAudienceSource(new StorageOrderAudienceSource(), { deviceEventPartitions: async () => PARTITIONS }) };
}

async function bothAnswers(audience: Audience, options: { limit?: number; zones?: ZoneFilter } = {}) {
  const { scan, small } = sources();
  const request = (fanoutId: string): PageRequest => ({ fanoutId, devices, topicMembers, audience, zones: options.zones, after: undefined, limit: options.limit ?? 1_000 });
  const byScan = (await scan.page(request('scan'))).map((row) => row._id).sort();
  const byLookup = await small.page(request('lookup'));
  await Promise.all([scan.close(), small.close()]);
  return { byScan, byLookup: byLookup.map((row) => row._id), lookedUp: small.lookedUp };
}

beforeAll(async () => {
  env = await createTestEnv('small-audience');
  const registry = new ReadModelRegistry(env.mongo.db);
  devices = await registry.collection<DeviceDocument>('devices');
  topicMembers = await registry.collection<TopicMembersDocument>('topic_members');
  await register([
    ...Array.from({ length: 12 }, (_, n) => base(n, ['beta'], n === 3 ? { status: 'inactive' } : n === 4 ? { timezone: 'Asia/Tokyo' } : {})),
    ...Array.from({ length: 5 }, (_, n) => base(100 + n, ['alpha', 'beta'])),
    ...Array.from({ length: PARTITIONS * (MEMBERS_PER_PARTITION + 1) }, (_, n) => base(1_000 + n, ['everyone'])),
  ]);
  // A member that left the topic since: re-registered without it (its list keeps it).
  await devices.updateOne({ token: 'small-5' }, { $set: { topics: [] } });
  await devices.insertOne({ ...deviceDoc('another-project', 'small-0', 0, {}), topics: ['beta'] });
}, 120_000);
afterAll(async () => {
  await env?.close();
});

describe('SmallAudienceSource', () => {
  it('answers small topics and device ids by lookups, exactly as the scan would, in id order', async () => {
    const [someDevice] = await devices.find({ token: 'small-1000' }).toArray();
    for (const audience of [audienceOf({ topicIds: ['beta'] }), audienceOf({ topicIds: ['alpha', 'beta'] }), audienceOf({ topicIds: ['alpha'], deviceRefs: [someDevice!._id] })]) {
      const { byScan, byLookup, lookedUp } = await bothAnswers(audience);
      expect(lookedUp, JSON.stringify(audience)).toBe(1);
      expect(byLookup).toEqual(byScan);
      expect(byLookup).toEqual(byLookup.toSorted());
    }
    // The inactive device and the one that left are not sent to; 12 + 5 - 2 remain.
    expect((await bothAnswers(audienceOf({ topicIds: ['beta'] }))).byLookup).toHaveLength(15);
  });

  it('keeps to a local-time slot the way the query does', async () => {
    for (const zones of [{ zones: ['Asia/Tokyo'], includeUnset: false }, { zones: ['Europe/Paris'], includeUnset: true }]) {
      const { byScan, byLookup, lookedUp } = await bothAnswers(audienceOf({ topicIds: ['beta'] }), { zones });
      expect(lookedUp).toBe(1);
      expect(byLookup).toEqual(byScan);
    }
  });

  it('hands over to the scan when the lists cannot tell: an overflowed topic, a token, metadata, more candidates than a page', async () => {
    const cases: Array<[Audience, number]> = [
      [audienceOf({ topicIds: ['everyone'] }), 1_000],
      [audienceOf({ topicIds: ['alpha'], deviceRefs: ['small-7'] }), 1_000],
      [audienceOf({ metadataFilters: [{ tier: 'gold' }] }), 1_000],
      [audienceOf({ topicIds: ['beta'] }), 10],
    ];
    for (const [audience, limit] of cases) {
      const { byScan, byLookup, lookedUp } = await bothAnswers(audience, { limit });
      expect(lookedUp, JSON.stringify(audience)).toBe(0);
      expect(byLookup.toSorted()).toEqual(byScan);
    }
  });

  it('scans when the partition count is unknown, and on every page after the first', async () => {
    const unknown = new SmallAudienceSource(new StorageOrderAudienceSource(), { deviceEventPartitions: () => Promise.reject(new Error('no broker')) });
    const audience = audienceOf({ topicIds: ['beta'] });
    expect(await unknown.page({ fanoutId: 'u', devices, topicMembers, audience, after: undefined, limit: 1_000 })).toHaveLength(15);
    expect(unknown.lookedUp).toBe(0);
    await unknown.close();
    const { small } = sources();
    const first = await small.page({ fanoutId: 'paged', devices, topicMembers, audience: audienceOf({ topicIds: ['everyone'] }), after: undefined, limit: 500 });
    await small.page({ fanoutId: 'paged', devices, topicMembers, audience: audienceOf({ topicIds: ['beta'] }), after: first.at(-1)!._id, limit: 500 });
    expect(small.lookedUp).toBe(0);
    await small.close();
  });

  it('matchesAudience agrees with the store on audienceFilter, device by device', async () => {
    const audiences = [
      audienceOf({ topicIds: ['beta'] }),
      audienceOf({ topicIds: ['alpha'], deviceRefs: ['small-7'], metadataFilters: [{ tier: 'gold' }] }),
      audienceOf({ metadataFilters: [{ tier: 'free' }] }),
    ];
    const everyDevice = await devices.find({ token: { $in: Array.from({ length: 20 }, (_, n) => `small-${n}`).concat(Array.from({ length: 5 }, (_, n) => `small-${100 + n}`)) } }).toArray();
    for (const audience of audiences) {
      for (const zones of [undefined, { zones: ['Asia/Tokyo'], includeUnset: true }]) {
        const byStore = (await devices.find({ ...audienceFilter(audience, { activeOnly: true, zones }), _id: { $in: everyDevice.map((device) => device._id) } }).toArray()).map((device) => device._id).sort();
        const byTwin = everyDevice.filter((device) => matchesAudience(device, audience, zones)).map((device) => device._id).sort();
        expect(byTwin, JSON.stringify({ audience, zones })).toEqual(byStore);
      }
    }
  });
});
