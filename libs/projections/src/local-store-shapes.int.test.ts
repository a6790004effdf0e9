import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_INDEXES, connectMongo, ensureIndexes, type MongoHandle } from '@herald/mongo';
import { driverDb, storeAdapter } from '@herald/mongo/testing';
import { countBothWays, explainHerald, findBothWays, type FindShape } from '@herald/mongo/differential';
import type { Collection, Document } from 'mongodb';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { startMongoJavaServer, type MongoJavaServer } from '@herald/testing/mongo-java-server';
import { COUNTER_INDEXES, DEVICE_INDEXES, LEDGER_INDEXES, NOTIFICATION_INDEXES, TOPIC_INDEXES, type IndexDefinition } from '@herald/read-models';

/**
 * Every query shape Herald issues against the read models and admin
 * collections (docs/internals/indexes.md), run with Herald's FerretDB
 * pushdown and without it on the same data, with the indexes the store
 * adapter creates: the answers must be equal. On FerretDB the test also
 * checks how they ran: the listings' pages and counts of a clean project in
 * SQL through an index, a project holding a hazard (an array where a string
 * is expected) back on FerretDB's own path, and the off switch really off.
 * Random filters and documents: libs/mongo/src/store/pushdown-random.int.test.ts.
 * The same shapes through the MongoDB adapter, on mongo-java-server (no mongod
 * runs here; infra/README.md, "mongo-java-server"), must answer as FerretDB does.
 */
let env: TestEnv;
let server: MongoJavaServer;
let mongo: MongoHandle;
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const PROJECTS = ['big', 'one', 'hz', 'nobody'] as const;

function devices(): Document[] {
  const docs: Document[] = [];
  const add = (project: string, n: number, extra: Document = {}) =>
    docs.push({
      _id: `${project}-dev-${String(n).padStart(4, '0')}`,
      project_id: project,
      token: `${project} token ${n}`,
      platform: n % 2 === 0 ? 'ios' : 'android',
      status: n % 5 === 0 ? 'inactive' : 'active',
      metadata: { lang: n % 3 === 0 ? 'fr' : 'en' },
      identifiers: { user: `u${n % 7}` },
      identifier_values: [`u${n % 7}`],
      topics: n % 2 === 0 ? ['t-a', 't-b'] : ['t-a'],
      // Ties on created_at: the `_id` decides.
      created_at: at(Math.floor(n / 3)),
      updated_at: at(n),
      registered_at: at(n),
      ...(n % 11 === 0 ? { external_id: `user ${n % 4}` } : {}),
      position: { partition: n % 3, offset: n },
      ...extra,
    });
  for (let n = 0; n < 260; n += 1) add('big', n);
  add('one', 0);
  for (let n = 0; n < 30; n += 1) add('hz', n);
  // Hazards in one project: a device whose project_id is an array holding it, a status array, a Date.
  add('hz', 900, { project_id: ['hz', 'other'] });
  add('hz', 901, { status: ['active'] });
  add('hz', 902, { created_at: new Date(0) });
  return docs;
}

function notifications(): Document[] {
  const statuses = ['queued', 'sending', 'sent', 'cancelled', 'scheduled'];
  const docs: Document[] = [];
  for (const [project, count] of [['big', 180], ['one', 1], ['hz', 12]] as const) {
    for (let n = 0; n < count; n += 1) {
      docs.push({ _id: `${project}-ntf-${String(n).padStart(4, '0')}`, project_id: project, title: 't', body: 'b', targets: ['t-a'], status: statuses[n % 5], counts: { targeted: n }, created_at: at(Math.floor(n / 2)), updated_at: at(n), position: { partition: 0, offset: n } });
    }
  }
  docs.push({ _id: 'hz-ntf-array', project_id: 'hz', status: ['sent'], created_at: at(3), position: { partition: 0, offset: 99 } });
  return docs;
}

const topics = () =>
  Array.from({ length: 40 }, (_, n) => ({ _id: `topic-${n}`, project_id: n < 35 ? 'big' : 'one', name: `topic ${n}`, created_at: at(Math.floor(n / 4)), position: { partition: 0, offset: n } }));

function ledger(): Document[] {
  const docs: Document[] = [];
  for (let n = 0; n < 30; n += 1) {
    const notification = `big-ntf-${String(n % 6).padStart(4, '0')}`;
    docs.push({
      _id: `${notification}:${n % 2 === 0 ? 'apns' : 'fcm'}:${n}`,
      project_id: 'big',
      notification_id: notification,
      provider: n % 2 === 0 ? 'apns' : 'fcm',
      sequence: n,
      devices: Array.from({ length: 5 }, (_, d) => ({ device_id: `big-dev-${String((n + d) % 20).padStart(4, '0')}`, outcome: d % 4 === 0 ? 'failed' : 'delivered' })),
      tally: { delivered: 4, failed: 1 },
      reported_at: at(n % 9),
      position: { partition: 0, offset: n },
    });
  }
  return docs;
}

const counters = () =>
  PROJECTS.flatMap((project) => [0, 1, 2].flatMap((partition) => ['devices', 'topic:t-a', 'topic:t-b'].map((key) => ({ _id: `${key}|${project}|${partition}`, project_id: project, key, partition, offset: 1, counts: { ios_active: partition + 1 } }))));

const schedules = () =>
  Array.from({ length: 60 }, (_, n) => {
    const dueAt = new Date(Date.UTC(2026, 0, 1, 0, 0, n % 17));
    return { _id: `schedule-${n}`, state: n % 3 === 0 ? 'fired' : 'pending', due_at: dueAt, due_key: dueAt.toISOString(), notification_id: `n${n}` };
  });

const collections: Record<string, { docs: () => Document[]; indexes: readonly IndexDefinition[] }> = {
  devices_v1: { docs: devices, indexes: DEVICE_INDEXES },
  notifications_v1: { docs: notifications, indexes: NOTIFICATION_INDEXES },
  topics_v1: { docs: topics, indexes: TOPIC_INDEXES },
  delivery_ledger_v1: { docs: ledger, indexes: LEDGER_INDEXES },
  devices_v1_counts: { docs: counters, indexes: COUNTER_INDEXES },
  delivery_schedules: { docs: schedules, indexes: ADMIN_INDEXES.delivery_schedules ?? [] },
};

beforeAll(async () => {
  env = await createTestEnv('local-store-shapes');
  server = await startMongoJavaServer();
  mongo = await connectMongo(`${server.url}local_store_shapes`, 'test-local-store-shapes');
  for (const [name, { docs, indexes }] of Object.entries(collections)) {
    // Indexes first, as the projector makes them: the local store indexes rows as they come.
    for (const store of [env.mongo.db, mongo.db]) {
      await ensureIndexes(store, name, indexes);
      await driverDb(store).collection(name).insertMany(docs());
    }
  }
});
afterAll(async () => {
  await mongo?.close();
  await server?.close();
  await env?.close();
});

const coll = (name: string): Collection<Document> => env.driverDb.collection(name);
const pages = (filter: Document, sort: Record<string, 1 | -1>): FindShape[] => [0, 20, 240, 400].map((skip) => ({ filter, sort, skip, limit: 20 }));
const OLDEST = { created_at: 1, _id: 1 } as const;
const NEWEST = { created_at: -1, _id: -1 } as const;

/** Each shape, by the collection it reads: [label, shape]. */
function findShapes(): Array<[string, string, FindShape]> {
  const shapes: Array<[string, string, FindShape]> = [];
  for (const p of PROJECTS) {
    for (const shape of pages({ project_id: p }, OLDEST)) shapes.push(['devices_v1', `device list ${p}`, shape]);
    for (const status of ['active', 'inactive']) for (const shape of pages({ project_id: p, status }, OLDEST)) shapes.push(['devices_v1', `device list ${p} ${status}`, shape]);
    shapes.push(['devices_v1', `device list ${p} by token`, { filter: { project_id: p, token: `${p} token 7` }, sort: OLDEST, skip: 0, limit: 20 }]);
    shapes.push(['devices_v1', `device ${p} by id`, { filter: { _id: `${p}-dev-0007`, project_id: p } }]);
    shapes.push(['devices_v1', `device ${p} by token`, { filter: { project_id: p, token: `${p} token 3` } }]);
    shapes.push(['devices_v1', `devices ${p} by identifier`, { filter: { project_id: p, $or: [{ _id: 'u3' }, { token: 'u3' }, { identifier_values: 'u3' }, { external_id: 'u3' }] }, projection: { _id: 1, project_id: 1, metadata: 1 }, limit: 101 }]);
    for (const shape of pages({ project_id: p }, NEWEST)) shapes.push(['notifications_v1', `notification list ${p}`, shape]);
    for (const shape of pages({ project_id: p, status: 'sent' }, NEWEST)) shapes.push(['notifications_v1', `notification list ${p} sent`, shape]);
    shapes.push(['notifications_v1', `notification ${p} by id`, { filter: { _id: `${p}-ntf-0003`, project_id: p } }]);
    for (const shape of pages({ project_id: p }, OLDEST)) shapes.push(['topics_v1', `topic list ${p}`, shape]);
    shapes.push(['topics_v1', `topic ${p} by id`, { filter: { _id: 'topic-3', project_id: p } }]);
    shapes.push(['devices_v1_counts', `counters ${p}`, { filter: { project_id: p, key: 'devices' } }]);
    shapes.push(['devices_v1_counts', `topic counters ${p}`, { filter: { project_id: p, key: { $in: ['topic:t-a', 'topic:t-b', 'topic:none'] } } }]);
    shapes.push(['delivery_ledger_v1', `device receipts ${p}`, { filter: { project_id: p, 'devices.device_id': `${p}-dev-0003` }, sort: { reported_at: -1, _id: 1 }, skip: 0, limit: 20 }]);
  }
  const ids = ['big-dev-0001', 'big-dev-0002', 'one-dev-0000', 'hz-dev-0900', 'missing'];
  shapes.push(['devices_v1', 'projector read by ids', { filter: { _id: { $in: ids } } }]);
  shapes.push(['notifications_v1', 'projector read by ids', { filter: { _id: { $in: ['big-ntf-0001', 'hz-ntf-array'] } } }]);
  shapes.push(['delivery_ledger_v1', 'receipts batches', { filter: { notification_id: 'big-ntf-0002', project_id: 'big' }, projection: { _id: 1, tally: 1 }, sort: { provider: 1, sequence: 1, _id: 1 } }]);
  shapes.push(['delivery_ledger_v1', 'receipt batches by id', { filter: { _id: { $in: ['big-ntf-0002:apns:2', 'big-ntf-0002:fcm:8'] } } }]);
  shapes.push(['delivery_ledger_v1', 'open check', { filter: { notification_id: 'big-ntf-0001', 'devices.device_id': 'big-dev-0004' } }]);
  shapes.push(['delivery_schedules', 'earliest schedules', { filter: { state: 'pending' }, projection: { _id: 1, due_at: 1 }, sort: { due_key: 1, _id: 1 }, limit: 50 }]);
  return shapes;
}

function countShapes(): Array<[string, string, Document, number | undefined]> {
  const shapes: Array<[string, string, Document, number | undefined]> = [];
  for (const p of PROJECTS) {
    shapes.push(['devices_v1', `devices ${p}`, { project_id: p }, undefined]);
    shapes.push(['devices_v1', `devices ${p} inactive`, { project_id: p, status: 'inactive' }, undefined]);
    shapes.push(['devices_v1', `devices ${p} by token`, { project_id: p, token: `${p} token 7` }, undefined]);
    shapes.push(['notifications_v1', `notifications ${p} sent`, { project_id: p, status: 'sent' }, undefined]);
    shapes.push(['topics_v1', `topics ${p}`, { project_id: p }, undefined]);
    shapes.push(['topics_v1', `topic quota ${p}`, { project_id: p }, 11]);
    shapes.push(['delivery_ledger_v1', `device receipts ${p}`, { project_id: p, 'devices.device_id': `${p}-dev-0003` }, undefined]);
  }
  shapes.push(['devices_v1', 'all devices', {}, undefined]);
  return shapes;
}

describe('the query shapes Herald issues', () => {
  it('answer the same with the pushdown and without it', async () => {
    for (const [name, label, shape] of findShapes()) {
      const { on, off } = await findBothWays(coll(name), shape);
      // Without a sort the order is the store's (an index's or the table's): compare as sets.
      const ordered = (docs: Document[]) => (shape.sort === undefined ? docs.map((doc) => JSON.stringify(doc)).sort() : docs);
      expect(ordered(on), `${label}: ${JSON.stringify(shape)}`).toEqual(ordered(off));
    }
    for (const [name, label, filter, limit] of countShapes()) {
      const { on, off } = await countBothWays(coll(name), filter, limit);
      expect(on, `count ${label}`).toBe(off);
    }
  });

  it('answer on mongo-java-server through the MongoDB adapter as on FerretDB through its own', async () => {
    const adapters = { mongodb: await storeAdapter(driverDb(mongo.db)), ferretdb: await storeAdapter(env.driverDb) };
    expect([adapters.mongodb.flavour, adapters.ferretdb.flavour]).toEqual(['mongodb', 'ferretdb']);
    const mine = (name: string) => driverDb(mongo.db).collection<Document>(name);
    for (const [name, label, shape] of findShapes()) {
      const { on } = await findBothWays(coll(name), shape);
      const { on: theirs } = await findBothWays(mine(name), shape);
      const ordered = (docs: Document[]) => (shape.sort === undefined ? docs.map((doc) => JSON.stringify(doc)).sort() : docs);
      expect(ordered(theirs), `${label}: ${JSON.stringify(shape)}`).toEqual(ordered(on));
    }
    for (const [name, label, filter, limit] of countShapes()) {
      const options = limit === undefined ? {} : { limit };
      expect(await adapters.mongodb.count(mine(name), filter, options), `count ${label}`).toBe(await adapters.ferretdb.count(coll(name), filter, options));
    }
    for (const p of PROJECTS) {
      const query = { filter: { project_id: p, 'devices.device_id': `${p}-dev-0003` }, field: 'devices', element: { device_id: `${p}-dev-0003`, outcome: 'delivered' }, sort: { reported_at: -1 as const, _id: 1 as const }, skip: 0, limit: 20 };
      expect(await adapters.mongodb.pageWithElement(mine('delivery_ledger_v1'), query), `device receipts ${p}`).toEqual(await adapters.ferretdb.pageWithElement(coll('delivery_ledger_v1'), query));
    }
  });

  it('run in SQL through an index on the local store, and as upstream with the switch off', async () => {
    if ((await storeAdapter(env.driverDb)).flavour !== 'ferretdb') return;
    const explain = (name: string, shape: FindShape & { count?: boolean }, off = false) => explainHerald(env.driverDb, name, shape, off);
    // An index search, and no scan of a FerretDB table (named `<collection>_<8 hex>`).
    const indexed = (plan: string[] | undefined) => (plan ?? []).some((line) => /USING (COVERING )?INDEX/.test(line)) && !(plan ?? []).some((line) => /^SCAN \w+_[0-9a-f]{8}\b/.test(line));

    for (const p of ['big', 'one']) {
      for (const [name, shape] of [
        ['devices_v1', { filter: { project_id: p }, sort: OLDEST, skip: 20, limit: 20 }],
        ['devices_v1', { filter: { project_id: p, status: 'inactive' }, sort: OLDEST, skip: 0, limit: 20 }],
        ['notifications_v1', { filter: { project_id: p, status: 'sent' }, sort: NEWEST, skip: 0, limit: 20 }],
        ['topics_v1', { filter: { project_id: p }, sort: OLDEST, skip: 0, limit: 20 }],
      ] as const) {
        const herald = await explain(name, shape);
        expect(herald, `${name} ${JSON.stringify(shape)}`).toMatchObject({ paged: true, guardHit: false });
        expect(indexed(herald?.plan), JSON.stringify(herald?.plan)).toBe(true);
        expect(await explain(name, shape, true), 'switched off').toBeUndefined();
      }
      const counted = await explain('topics_v1', { filter: { project_id: p }, count: true, limit: 11 });
      expect(counted).toMatchObject({ counted: true, guardHit: false });
      expect(indexed(counted?.plan)).toBe(true);
    }
    // The scheduler's look reads the page from its index, not every stored schedule (issue 17, docs/internals/idle.md).
    const earliest = await explain('delivery_schedules', { filter: { state: 'pending' }, sort: { due_key: 1, _id: 1 }, skip: 0, limit: 5 });
    expect(earliest, 'earliest schedules').toMatchObject({ paged: true, guardHit: false });
    expect(indexed(earliest?.plan), JSON.stringify(earliest?.plan)).toBe(true);
    // A lookup by _id with other keys: the _id index, whatever the project.
    const byId = await explain('devices_v1', { filter: { _id: 'big-dev-0007', project_id: 'big' } });
    expect(byId?.plan.join(' ')).toMatch(/USING INDEX \S+__id_ /);
    const byToken = await explain('devices_v1', { filter: { project_id: 'big', token: 'big token 3' } });
    expect(byToken?.plan.join(' ')).toMatch(/USING INDEX \S+_by_project_token /);
    // The project holding an array where a string belongs: its page falls back (the results above were equal).
    expect(await explain('devices_v1', { filter: { project_id: 'hz' }, sort: OLDEST, skip: 0, limit: 20 })).toMatchObject({ paged: false, guardHit: true });
  });
});
