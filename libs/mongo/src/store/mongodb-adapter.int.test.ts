import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BSON, type Collection, type Db, type Document } from 'mongodb';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { startMongoJavaServer, type MongoJavaServer } from '@herald/testing/mongo-java-server';
import { COUNTER_INDEXES, DEVICE_INDEXES, LEDGER_INDEXES, NOTIFICATION_INDEXES, TOPIC_INDEXES, type IndexDefinition } from '@herald/read-models';
import { connectMongo, type MongoHandle } from '../connect-mongo.ts';
import { ADMIN_INDEXES, ensureIndexes } from '../collections.ts';
import { driverDb } from '../store-handle.ts';
import { ferretdbStore } from './ferretdb-store.ts';
import { detectStore, mongodbStore } from './store-adapter.ts';
import { FIELDS, hexPool, randomDocuments, randomFilter, randomSort, seededRandom } from './random-documents.ts';
import { COUNT_CASES, COUNT_ITEMS, ELEMENT_BATCHES, ELEMENT_PAGE_CASES, expectedElementPage, type CountItem, type ElementBatch } from './store-cases.ts';

/**
 * The MongoDB store adapter, which the FerretDB of every other test never
 * runs, on mongo-java-server: an in-memory server speaking MongoDB's wire
 * protocol (infra/README.md, "mongo-java-server"; no mongod can run here).
 * First the store contract's cases that the FerretDB adapter passes
 * (store-count, element-page, replace-all), then a differential: random
 * filters, sorts and pages over documents that mix every hazard
 * (random-documents.ts), through the MongoDB adapter on mongo-java-server and
 * through the FerretDB adapter on the local FerretDB, must answer alike.
 *
 * One gap of mongo-java-server 1.47 is left out, by construction: it orders
 * documents whose sort key is an empty array wrongly among themselves (it does
 * not go on to the next sort key, as MongoDB and FerretDB do), so the sorted
 * pages run over documents without an empty array. Explain it does not know
 * (`no such command: 'explain'`); only the FerretDB pushdown's tests explain.
 */
let server: MongoJavaServer;
let mongo: MongoHandle;
let db: Db;
let env: TestEnv;

beforeAll(async () => {
  server = await startMongoJavaServer();
  mongo = await connectMongo(`${server.url}mongodb_adapter`, 'test-mongodb-adapter');
  db = driverDb(mongo.db);
  env = await createTestEnv('mongodb-adapter');
});
afterAll(async () => {
  await mongo?.close();
  await server?.close();
  await env?.close();
});

describe('the MongoDB adapter on mongo-java-server', () => {
  it('is the adapter detected for a server that is not FerretDB', async () => {
    expect(await detectStore(db)).toBe(mongodbStore);
    expect(await detectStore(env.driverDb)).toBe(ferretdbStore);
  });

  describe('count (the cases of store-count.int.test.ts)', () => {
    let items: Collection<CountItem>;
    beforeAll(async () => {
      items = db.collection('count_items');
      await items.insertMany(COUNT_ITEMS.map((item) => ({ ...item })));
    });

    it.each(COUNT_CASES)('counts %j as %i', async (filter, expected) => {
      expect(await mongodbStore.count(items, filter)).toBe(expected);
    });

    it('stops at the limit', async () => {
      expect(await mongodbStore.count(items, { project_id: 'mine' }, { limit: 11 })).toBe(11);
      expect(await mongodbStore.count(items, { project_id: 'theirs' }, { limit: 1_000 })).toBe(300);
    });
  });

  describe('pageWithElement (the cases of element-page.int.test.ts, by $elemMatch here)', () => {
    let mine: Collection<ElementBatch>;
    let local: Collection<ElementBatch>;
    beforeAll(async () => {
      mine = db.collection<ElementBatch>('element_page_batches');
      local = env.driverDb.collection<ElementBatch>('element_page_batches');
      await mine.insertMany(ELEMENT_BATCHES.map((batch) => ({ ...batch })));
      await local.insertMany(ELEMENT_BATCHES.map((batch) => ({ ...batch })));
    });

    it.each(ELEMENT_PAGE_CASES)('%s, skip %i, limit %i: that device\'s lines only, newest first, counted; as the FerretDB adapter answers', async (outcome, skip, limit) => {
      const query = { filter: { project_id: 'mine', 'devices.device_id': 'dev' }, field: 'devices', element: { device_id: 'dev', outcome }, sort: { reported_at: -1 as const, _id: 1 as const }, skip, limit };
      const page = await mongodbStore.pageWithElement(mine, query);
      const theirs = await ferretdbStore.pageWithElement(local, query);
      expect({ count: page.count, ids: page.docs.map((doc) => doc._id) }).toEqual(expectedElementPage(outcome, skip, limit));
      expect({ count: theirs.count, ids: theirs.docs.map((doc) => doc._id) }).toEqual(expectedElementPage(outcome, skip, limit));
    });
  });

  describe('replaceAll (the cases of replace-all.int.test.ts)', () => {
    it('replaces 150 existing documents and inserts 10 new ones', async () => {
      const docs = db.collection<{ _id: string; n: number }>('replace_all_docs');
      await docs.insertMany(Array.from({ length: 150 }, (_, n) => ({ _id: `doc-${n}`, n })));
      await mongodbStore.replaceAll(docs, Array.from({ length: 160 }, (_, n) => ({ _id: `doc-${n}`, n: n * 10 })));
      const stored = await docs.find({}).sort({ n: 1 }).toArray();
      expect(stored.map((doc) => doc.n)).toEqual(Array.from({ length: 160 }, (_, n) => n * 10));
    });

    it('does nothing with no documents', async () => {
      await expect(mongodbStore.replaceAll(db.collection<{ _id: string }>('replace_all_none'), [])).resolves.toBeUndefined();
    });
  });

  it('creates every declared index of the read models and admin collections (indexesFor keeps them all)', async () => {
    const declared: Record<string, readonly IndexDefinition[]> = {
      devices_v1: DEVICE_INDEXES,
      notifications_v1: NOTIFICATION_INDEXES,
      topics_v1: TOPIC_INDEXES,
      delivery_ledger_v1: LEDGER_INDEXES,
      devices_v1_counts: COUNTER_INDEXES,
      ...ADMIN_INDEXES,
    };
    for (const [name, indexes] of Object.entries(declared)) {
      await ensureIndexes(mongo.db, name, indexes);
      const listed = (await db.collection(name).listIndexes().toArray()).map((index) => String(index.name));
      expect(listed.sort(), name).toEqual(['_id_', ...indexes.map((index) => String(index.name))].sort());
    }
  });
});

const show = (value: Document) => BSON.EJSON.stringify(value, { relaxed: false });
const hasEmptyArray = (doc: Document) => Object.values(doc).some((value) => Array.isArray(value) && value.length === 0);

describe.each([21, 4242])('the MongoDB adapter on mongo-java-server and the FerretDB adapter on FerretDB agree (seed %i)', (seed) => {
  const random = seededRandom(seed);
  const hexes = hexPool(random);
  const written = randomDocuments(random, 500, hexes);
  const ids = written.map((doc): unknown => doc._id);
  const pair = (name: string) => ({ mine: db.collection<Document>(name), local: env.driverDb.collection<Document>(name) });

  beforeAll(async () => {
    const { mine, local } = pair(`random_${seed}`);
    await mine.insertMany(written.map((doc) => ({ ...doc })));
    await local.insertMany(written.map((doc) => ({ ...doc })));
    // Sorted pages: the same documents less those holding an empty array (mongo-java-server's sort gap, above).
    const sortable = written.filter((doc) => !hasEmptyArray(doc));
    const sorted = pair(`sorted_${seed}`);
    await sorted.mine.insertMany(sortable.map((doc) => ({ ...doc })));
    await sorted.local.insertMany(sortable.map((doc) => ({ ...doc })));
  });

  it('stores and returns every document as written', async () => {
    const { mine } = pair(`random_${seed}`);
    expect((await mine.find({}).toArray()).map(show).sort()).toEqual(written.map(show).sort());
  });

  it('counts alike (each adapter\'s count, with and without a limit) and finds the same documents for random filters', async () => {
    const { mine, local } = pair(`random_${seed}`);
    let matched = 0;
    for (let n = 0; n < 150; n += 1) {
      const filter = randomFilter(random, hexes, ids);
      const limit = random() < 0.3 ? 1 + Math.floor(random() * 50) : undefined;
      const options = limit === undefined ? {} : { limit };
      const label = `seed ${seed}, filter ${n}: ${show({ filter, limit })}`;
      const count = await mongodbStore.count(mine, filter, options);
      expect(count, label).toBe(await ferretdbStore.count(local, filter, options));
      const found = (await mine.find(filter).toArray()).map(show).sort();
      expect(found, label).toEqual((await local.find(filter).toArray()).map(show).sort());
      if (found.length > 0) matched += 1;
    }
    // Not a comparison of empty answers.
    expect(matched).toBeGreaterThan(50);
  });

  it('returns the same sorted pages for random filters, sorts and pages', async () => {
    const { mine, local } = pair(`sorted_${seed}`);
    let sorted = 0;
    for (let n = 0; n < 150; n += 1) {
      const filter = random() < 0.3 ? {} : randomFilter(random, hexes, ids);
      const sort = randomSort(random) ?? { _id: 1 as const };
      const skip = Math.floor(random() * 20);
      const limit = 1 + Math.floor(random() * 30);
      const page = (collection: Collection<Document>) => collection.find(filter).sort(sort).skip(skip).limit(limit).toArray();
      const found = (await page(mine)).map(show);
      expect(found, `seed ${seed}, page ${n}: ${show({ filter, sort, skip, limit })} (fields ${FIELDS.join(', ')})`).toEqual((await page(local)).map(show));
      if (found.length > 1) sorted += 1;
    }
    expect(sorted).toBeGreaterThan(30);
  });
});
