import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '@herald/testing';
import type { Collection } from 'mongodb';
import { ferretdbStore } from './ferretdb-store.ts';
import { mongodbStore } from './store-adapter.ts';
import { COUNT_CASES, COUNT_ITEMS, type CountItem } from './store-cases.ts';

/** Both adapters' count, over the real store, agree with the driver's countDocuments, limit included. */
let env: TestEnv;
let items: Collection<CountItem>;

beforeAll(async () => {
  env = await createTestEnv('store-count');
  items = env.driverDb.collection('count_items');
  await items.insertMany(COUNT_ITEMS.map((item) => ({ ...item })));
});
afterAll(async () => {
  await env?.close();
});

describe.each([
  ['ferretdb ($count stage)', ferretdbStore],
  ['mongodb (countDocuments)', mongodbStore],
])('the %s adapter', (_name, store) => {
  it.each(COUNT_CASES)('counts %j as %i, as countDocuments does', async (filter, expected) => {
    expect(await store.count(items, filter)).toBe(expected);
    expect(await items.countDocuments(filter)).toBe(expected);
  });

  it('stops at the limit', async () => {
    expect(await store.count(items, { project_id: 'mine' }, { limit: 11 })).toBe(11);
    expect(await store.count(items, { project_id: 'theirs' }, { limit: 1_000 })).toBe(300);
  });
});
