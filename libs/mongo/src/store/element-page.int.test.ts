import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '@herald/testing';
import type { Collection } from 'mongodb';
import { storeAdapter } from './store-adapter.ts';
import { ELEMENT_BATCHES, ELEMENT_PAGE_CASES, expectedElementPage, type ElementBatch } from './store-cases.ts';


/**
 * A device's batches where its own line has an outcome: the adapter of the
 * store under test (the local FerretDB here: its adapter compares the lines
 * itself) answers what the same question answered in memory does, page and
 * count included.
 */
let env: TestEnv;
let batches: Collection<ElementBatch>;

beforeAll(async () => {
  env = await createTestEnv('element-page');
  batches = env.driverDb.collection<ElementBatch>('element_page_batches');
  await batches.insertMany(ELEMENT_BATCHES.map((batch) => ({ ...batch })));
});
afterAll(async () => {
  await env?.close();
});


describe('StoreAdapter.pageWithElement', () => {
  it.each(ELEMENT_PAGE_CASES)('%s, skip %i, limit %i: the lines of that device only, newest first, counted', async (outcome, skip, limit) => {
    const store = await storeAdapter(env.driverDb);
    const page = await store.pageWithElement(batches, {
      filter: { project_id: 'mine', 'devices.device_id': 'dev' },
      field: 'devices',
      element: { device_id: 'dev', outcome },
      sort: { reported_at: -1, _id: 1 },
      skip,
      limit,
    });
    expect({ count: page.count, ids: page.docs.map((doc) => doc._id) }).toEqual(expectedElementPage(outcome, skip, limit));
  });
});
