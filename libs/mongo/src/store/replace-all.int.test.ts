import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '@herald/testing';
import type { Collection } from 'mongodb';
import { storeAdapter } from './store-adapter.ts';

/**
 * StoreAdapter.replaceAll on the store under test (the local FerretDB here):
 * more replacements of existing documents than FerretDB 1.24 takes in one
 * `update` command (it hangs at 100), and new ones among them, all land.
 */
let env: TestEnv;
let docs: Collection<{ _id: string; n: number }>;

beforeAll(async () => {
  env = await createTestEnv('replace-all');
  docs = env.driverDb.collection('replace_all_docs');
  await docs.insertMany(Array.from({ length: 150 }, (_, n) => ({ _id: `doc-${n}`, n })));
});
afterAll(async () => {
  await env?.close();
});

describe('StoreAdapter.replaceAll', () => {
  it('replaces 150 existing documents and inserts 10 new ones', async () => {
    const store = await storeAdapter(env.driverDb);
    await store.replaceAll(docs, Array.from({ length: 160 }, (_, n) => ({ _id: `doc-${n}`, n: n * 10 })));
    const stored = await docs.find({}).sort({ n: 1 }).toArray();
    expect(stored.map((doc) => doc.n)).toEqual(Array.from({ length: 160 }, (_, n) => n * 10));
  });

  it('does nothing with no documents', async () => {
    const store = await storeAdapter(env.driverDb);
    await expect(store.replaceAll(docs, [])).resolves.toBeUndefined();
  });
});
