import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, topicIdFor, type AudienceCondition, type HeraldEvent, type ResolvedAudience } from '@herald/events';
import { audienceFilter, matchesAudience, type Audience, type ZoneFilter } from '@herald/audience';
import { randomCondition, simplerConditions, type ConditionVocabulary } from '@herald/audience/random-condition';
import { ensureTopics, partitionForKey, withLogAdmin, type RunningConsumer } from '@herald/kafka';
import { ReadModelRegistry } from '@herald/mongo';
import { type DeviceDocument, devicesProjection } from '@herald/read-models';
import { runProjection } from '@herald/projections';
import { createTestEnv, waitFor, waitForGroupCaughtUp, type TestEnv } from '@herald/testing';
import { AudienceIndex, estimateAudience, readPage } from '@herald/audience-index';
import { runAudienceIndex, type RunningIndex } from './run-index.ts';

/**
 * The audience index against the devices read model, over the real Kafka
 * and store: random registrations, metadata changes, deactivations (stale
 * ones too), unregistrations, user links and token refreshes go through the
 * log once; the projector builds the read model, the index its partitions;
 * then every device must read the same in both, and random audiences must
 * select the same devices through the index (readPage, in pages) and
 * through the predicate's MongoDB twin (audienceFilter); so must random
 * target expressions, through the index, the store and the pure predicate
 * (issue 47: one predicate everywhere), a failure shrunk to its simplest.
 */
const PARTITIONS = 3;
const PROJECTS = ['p-one', 'p-two'];
const TOPIC_NAMES = ['news', 'sport', 'deals', 'tech'];
const KEYS = ['plan', 'lang', 'tier'];
const VALUES = ['a', 'b', 'c d', 'é'];
const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo'];
const LOCALES = ['fr', 'fr-CA', 'en', 'en-US', 'de'];

let env: TestEnv;
let dir: string;
let index: AudienceIndex;
let running: RunningIndex;
let projection: RunningConsumer;
const projected = new Map<string, DeviceDocument>();

/** A small deterministic generator, so a failure can be replayed (the seed is printed). */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    some: <T>(items: readonly T[]): T[] => items.filter(() => next() < 0.4),
  };
}
const seed = Number(process.env.INDEX_TEST_SEED ?? Date.now() % 100_000);
const random = generator(seed);

function history(): HeraldEvent[] {
  const events: HeraldEvent[] = [];
  const devices: Array<{ project: string; id: string; token: string }> = [];
  const metadata = () => Object.fromEntries(random.some(KEYS).map((key) => [key, random.pick(VALUES)]));
  const topics = (project: string) => random.some(TOPIC_NAMES).map((name) => topicIdFor(project, name));
  for (let n = 0; n < 240; n += 1) {
    const project = random.pick(PROJECTS);
    const token = `tok-${n}-${random.next() < 0.05 ? 'x'.repeat(300) : 'short'}`;
    const id = deviceIdFor(project, token);
    devices.push({ project, id, token });
    const context = { project_id: project };
    events.push(
      createEvent(
        'DeviceRegistered',
        {
          device_id: id,
          token,
          platform: random.pick(['ios', 'android'] as const),
          metadata: metadata(),
          topic_ids: topics(project),
          ...(random.next() < 0.3 ? { external_id: `user-${Math.floor(random.next() * 20)}` } : {}),
          ...(random.next() < 0.6 ? { timezone: random.pick(ZONES) } : {}),
          ...(random.next() < 0.6 ? { locale: random.pick(LOCALES) } : {}),
        },
        context,
      ),
    );
  }
  for (let n = 0; n < 400; n += 1) {
    const device = random.pick(devices);
    const context = { project_id: device.project };
    const roll = random.next();
    if (roll < 0.3) events.push(createEvent('MetadataUpdated', { device_id: device.id, set: metadata(), unset: random.some(KEYS), ...(random.next() < 0.3 ? { locale: random.pick(LOCALES) } : {}) }, context));
    else if (roll < 0.45) events.push(createEvent('DeviceDeactivated', { device_id: device.id, provider: 'apns', reason: 'Unregistered', ...(random.next() < 0.5 ? { provider_timestamp: '2000-01-01T00:00:00.000Z' } : {}) }, context));
    else if (roll < 0.52) events.push(createEvent('DeviceUnregistered', { device_id: device.id }, context));
    // Deleted and purged (a later registration of its token makes it anew), or a purge alone: it applies to an inactive device only.
    else if (roll < 0.55) events.push(createEvent('DeviceUnregistered', { device_id: device.id }, context), createEvent('DevicePurged', { device_id: device.id }, context));
    else if (roll < 0.56) events.push(createEvent('DevicePurged', { device_id: device.id }, context));
    else if (roll < 0.6) events.push(createEvent('DeviceUnlinked', { device_id: device.id }, context));
    else if (roll < 0.7) {
      // A token refresh: the device keeps its id and takes a new token, which TokenAssigned files under the token's own id.
      const token = `${device.token}-r${n}`;
      device.token = token;
      events.push(createEvent('DeviceRegistered', { device_id: device.id, token, platform: 'ios' }, context));
      events.push(createEvent('TokenAssigned', { token_device_id: deviceIdFor(device.project, token), device_id: device.id, token }, context));
    } else {
      events.push(createEvent('DeviceRegistered', { device_id: device.id, token: device.token, platform: 'android', topic_ids: topics(device.project), metadata: metadata() }, context));
    }
  }
  // The first device, deleted and purged last: gone from both for certain.
  const last = devices[0]!;
  events.push(createEvent('DeviceUnregistered', { device_id: last.id }, { project_id: last.project }), createEvent('DevicePurged', { device_id: last.id }, { project_id: last.project }));
  purgedLast = last.id;
  return events;
}
let purgedLast: string | undefined;

beforeAll(async () => {
  env = await createTestEnv('audience-index');
  await ensureTopics(env.kafka, { partitions: PARTITIONS });
  const events = history();
  for (let i = 0; i < events.length; i += 200) await env.producer.publish(events.slice(i, i + 200));
  const version = await new ReadModelRegistry(env.mongo.db).active('devices');
  projection = await runProjection({ kafka: env.kafka, producer: env.producer, db: env.mongo.db, logger: env.logger }, devicesProjection, version);
  dir = await mkdtemp(join(tmpdir(), 'herald-index-test-'));
  index = AudienceIndex.open(dir);
  running = await runAudienceIndex({ kafka: env.kafka, producer: env.producer, index, instance: 'index-test', logger: env.logger });
  const ends = await withLogAdmin(env.kafka, (admin) => admin.ends(env.kafka.topic(TOPICS.deviceEvents)));
  await waitFor('the index applied every device event', () => ends.every((end) => index.next(end.partition) >= end.high), 60_000);
  await waitForGroupCaughtUp(env.kafka, version.group, TOPICS.deviceEvents, 60_000);
  for (const doc of await env.driverDb.collection<DeviceDocument>(version.collection).find({}).toArray()) projected.set(doc._id, doc);
  process.stdout.write(`audience index property test: seed ${seed}, ${events.length} events, ${projected.size} devices\n`);
}, 180_000);

afterAll(async () => {
  await running?.consumer.stop();
  await projection?.stop();
  await index?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  await env?.close();
});

const audienceFields = (device: Pick<DeviceDocument, 'project_id' | 'token' | 'platform' | 'status' | 'topics' | 'metadata' | 'external_id' | 'timezone' | 'locale'>) => ({
  project_id: device.project_id,
  token: device.token,
  platform: device.platform,
  status: device.status,
  topics: [...device.topics].sort(),
  metadata: device.metadata,
  external_id: device.external_id ?? null,
  timezone: device.timezone ?? null,
  locale: device.locale ?? null,
});

describe('the audience index', () => {
  it('holds every device as the devices read model does (seed in the output)', () => {
    const indexed = new Map<string, ReturnType<typeof audienceFields>>();
    for (let partition = 0; partition < PARTITIONS; partition += 1) {
      // By id: a purged device's emptied row is no device (its id is forgotten, or now names the device made anew).
      for (const row of index.devices(partition)) {
        const device = index.device(partition, row._id);
        if (device !== undefined) indexed.set(device._id, audienceFields(device));
      }
    }
    expect(indexed.size).toBe(projected.size);
    expect(projected.has(purgedLast!) || indexed.has(purgedLast!), 'the device purged last').toBe(false);
    for (const [id, doc] of projected) expect(indexed.get(id), `device ${id}`).toEqual(audienceFields(doc));
  });

  it('selects the same devices as the read model for random audiences, page by page (seed in the output)', async () => {
    const devices = env.driverDb.collection<DeviceDocument>((await new ReadModelRegistry(env.mongo.db).active('devices')).collection);
    const docs = [...projected.values()];
    for (let round = 0; round < 60; round += 1) {
      const project = random.pick(PROJECTS);
      const mine = docs.filter((doc) => doc.project_id === project);
      const audience: ResolvedAudience = {
        topic_ids: random.some(TOPIC_NAMES).map((name) => topicIdFor(project, name)),
        device_ids: random.some(mine).slice(0, 3).map((doc) => doc._id),
        tokens: [...random.some(mine).slice(0, 3).map((doc) => doc.token), ...(random.next() < 0.3 ? ['no-such-token'] : [])],
        external_ids: random.next() < 0.3 ? [`user-${Math.floor(random.next() * 20)}`] : [],
        metadata: random.next() < 0.5 ? [Object.fromEntries(random.some(KEYS).map((key) => [key, random.pick(VALUES)]))] : [],
      };
      const zones: ZoneFilter | undefined = random.next() < 0.3 ? { zones: random.some(ZONES), includeUnset: random.next() < 0.5 } : undefined;
      const expected = (await devices.find(audienceFilter(project, audience, zones)).project<{ _id: string }>({ _id: 1 }).toArray()).map((doc) => doc._id).sort();
      const found: string[] = [];
      for (let partition = 0; partition < PARTITIONS; partition += 1) {
        let after: number | undefined;
        for (;;) {
          const page = readPage(index, { partition, projectId: project, audience, zones, after, limit: 7, partitionOf: (id) => partitionForKey(id, PARTITIONS) });
          const ordinals = page.rows.map((row) => row.ordinal);
          expect(ordinals, 'ascending ordinals past the last page').toEqual([...ordinals].sort((a, b) => a - b).filter((ordinal) => after === undefined || ordinal > after));
          found.push(...page.rows.map((row) => row.device_id));
          if (page.exhausted) break;
          after = page.after;
        }
      }
      expect(found.length, 'no device twice').toBe(new Set(found).size);
      expect(found.sort(), `audience ${JSON.stringify({ project, audience, zones })}`).toEqual(expected);
    }
  });

  it('selects the same devices through the index, the store and the pure predicate for random expressions (seed in the output; shrunk on failure)', async () => {
    const devices = env.driverDb.collection<DeviceDocument>((await new ReadModelRegistry(env.mongo.db).active('devices')).collection);
    const docs = [...projected.values()];
    const none: Audience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };
    for (let round = 0; round < 500; round += 1) {
      const project = random.pick(PROJECTS);
      const mine = docs.filter((doc) => doc.project_id === project);
      const vocabulary: ConditionVocabulary = {
        topicIds: TOPIC_NAMES.map((name) => topicIdFor(project, name)),
        deviceIds: random.some(mine).slice(0, 4).map((doc) => doc._id).concat('no-such-device'),
        tokens: random.some(mine).slice(0, 4).map((doc) => doc.token).concat('no-such-token'),
        externalIds: ['user-1', 'user-2', 'user-3'],
        keys: KEYS,
        values: VALUES,
        platforms: ['ios', 'android'],
        locales: ['fr', 'fr-CA', 'en', 'de'],
        zones: ZONES,
      };
      const zones: ZoneFilter | undefined = random.next() < 0.2 ? { zones: random.some(ZONES), includeUnset: random.next() < 0.5 } : undefined;
      const audienceOf = (condition: AudienceCondition): Audience => ({ ...none, expressions: [condition] });
      const verdicts = async (condition: AudienceCondition) => {
        const audience = audienceOf(condition);
        const store = (await devices.find(audienceFilter(project, audience, zones)).project<{ _id: string }>({ _id: 1 }).toArray()).map((doc) => doc._id).sort();
        const pure = docs.filter((doc) => matchesAudience(doc, project, audience, zones)).map((doc) => doc._id).sort();
        const indexed: string[] = [];
        for (let partition = 0; partition < PARTITIONS; partition += 1) {
          let after: number | undefined;
          for (;;) {
            const page = readPage(index, { partition, projectId: project, audience, zones, after, limit: 5, partitionOf: (id) => partitionForKey(id, PARTITIONS) });
            indexed.push(...page.rows.map((row) => row.device_id));
            if (page.exhausted) break;
            after = page.after;
          }
        }
        return { store, pure, indexed: indexed.sort() };
      };
      const disagree = async (condition: AudienceCondition) => {
        const { store, pure, indexed } = await verdicts(condition);
        return JSON.stringify(store) !== JSON.stringify(pure) || JSON.stringify(indexed) !== JSON.stringify(pure);
      };
      let condition = randomCondition(() => random.next(), vocabulary);
      if (!(await disagree(condition))) continue;
      // Shrink: the simplest condition that still disagrees, then report all three answers for it.
      for (let step = 0; step < 200; step += 1) {
        let simpler: AudienceCondition | undefined;
        for (const candidate of simplerConditions(condition)) {
          if (await disagree(candidate)) {
            simpler = candidate;
            break;
          }
        }
        if (simpler === undefined) break;
        condition = simpler;
      }
      expect.fail(`seed ${seed}: the store, the predicate and the index disagree on ${JSON.stringify(condition)} (project ${project}, zones ${JSON.stringify(zones)}): ${JSON.stringify(await verdicts(condition))}`);
    }
  }, 300_000);

  it("estimates a partition's audience from key counts: exact for one topic or one user, never below the audience otherwise", () => {
    const none: ResolvedAudience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };
    const docs = [...projected.values()].filter((doc) => doc.status === 'active');
    for (const project of PROJECTS) {
      for (let partition = 0; partition < PARTITIONS; partition += 1) {
        const here = docs.filter((doc) => doc.project_id === project && partitionForKey(doc._id, PARTITIONS) === partition);
        for (const name of TOPIC_NAMES) {
          const topic = topicIdFor(project, name);
          expect(estimateAudience(index, { partition, projectId: project, audience: { ...none, topic_ids: [topic] } }), `${project} ${name} on ${partition}`).toBe(here.filter((doc) => doc.topics.includes(topic)).length);
        }
        const user = here.find((doc) => doc.external_id !== undefined)?.external_id;
        if (user !== undefined) expect(estimateAudience(index, { partition, projectId: project, audience: { ...none, external_ids: [user] } })).toBe(here.filter((doc) => doc.external_id === user).length);
        const everyTopic = { ...none, topic_ids: TOPIC_NAMES.map((name) => topicIdFor(project, name)) };
        expect(estimateAudience(index, { partition, projectId: project, audience: everyTopic })).toBeGreaterThanOrEqual(here.filter((doc) => doc.topics.length > 0).length);
        expect(estimateAudience(index, { partition, projectId: project, audience: { ...none, metadata: [{}] } })).toBeGreaterThanOrEqual(here.length);
      }
    }
  });

  it('resumes from its checkpoint: reopened, it has every partition where it left off', async () => {
    const before = Object.fromEntries(Array.from({ length: PARTITIONS }, (_, partition) => [partition, index.next(partition)]));
    expect(Object.values(before).some((next) => next > 0)).toBe(true);
    expect(index.checkpoints()).toEqual(Object.fromEntries(Object.entries(before).filter(([, next]) => next > 0)));
  });
});
