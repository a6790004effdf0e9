import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '@herald/testing';
import type { Collection } from 'mongodb';
import { storeAdapter } from './store-adapter.ts';

interface Batch {
  _id: string;
  project_id: string;
  reported_at: string;
  devices: Array<{ device_id: string; outcome: string }>;
}

/**
 * A device's batches where its own line has an outcome: the adapter of the
 * store under test (the local FerretDB here: its adapter compares the lines
 * itself) answers what the same question answered in memory does, page and
 * count included.
 */
let env: TestEnv;
let batches: Collection<Batch>;
const all: Batch[] = Array.from({ length: 40 }, (_, n) => ({
  _id: `batch-${String(n).padStart(2, '0')}`,
  project_id: n < 36 ? 'mine' : 'theirs',
  reported_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
  // The device's own line alternates delivered/failed; another device's line is always the other outcome.
  devices: [
    { device_id: 'other', outcome: n % 2 === 0 ? 'failed' : 'delivered' },
    ...(n % 3 === 2 ? [] : [{ device_id: 'dev', outcome: n % 2 === 0 ? 'delivered' : 'failed' }]),
  ],
}));

beforeAll(async () => {
  env = await createTestEnv('element-page');
  batches = env.driverDb.collection<Batch>('element_page_batches');
  await batches.insertMany(all);
});
afterAll(async () => {
  await env?.close();
});

function expected(outcome: string, skip: number, limit: number): { count: number; ids: string[] } {
  const kept = all
    .filter((batch) => batch.project_id === 'mine' && batch.devices.some((line) => line.device_id === 'dev' && line.outcome === outcome))
    .sort((a, b) => b.reported_at.localeCompare(a.reported_at));
  return { count: kept.length, ids: kept.slice(skip, skip + limit).map((batch) => batch._id) };
}

describe('StoreAdapter.pageWithElement', () => {
  it.each([
    ['delivered', 0, 5],
    ['delivered', 5, 5],
    ['failed', 0, 100],
    ['failed', 10, 3],
    ['opened', 0, 5],
  ])('%s, skip %i, limit %i: the lines of that device only, newest first, counted', async (outcome, skip, limit) => {
    const store = await storeAdapter(env.driverDb);
    const page = await store.pageWithElement(batches, {
      filter: { project_id: 'mine', 'devices.device_id': 'dev' },
      field: 'devices',
      element: { device_id: 'dev', outcome },
      sort: { reported_at: -1, _id: 1 },
      skip,
      limit,
    });
    expect({ count: page.count, ids: page.docs.map((doc) => doc._id) }).toEqual(expected(outcome, skip, limit));
  });
});
