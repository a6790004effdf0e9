import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { IdempotencyStore, PENDING_LEASE_MS } from './idempotency-store.ts';

let env: TestEnv;
let store: IdempotencyStore;
let expiry: 'ttl-index' | 'reclaim-on-use';
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  env = await createTestEnv('idempotency-store');
  store = new IdempotencyStore(env.mongo.db);
  expiry = await store.ensureIndexes();
});
afterAll(async () => {
  await env?.close();
});

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('IdempotencyStore', () => {
  it('keeps a TTL index on expires_at where the store has TTL indexes, and stamps every expiring key', async () => {
    await store.claim('ttl', 'h', DAY, at(0));
    const indexes = await env.driverDb.collection(ADMIN_COLLECTIONS.idempotencyKeys).indexes();
    const ttl = indexes.find((index) => index.name === 'expire_keys');
    if (expiry === 'ttl-index') expect(ttl).toMatchObject({ key: { expires_at: 1 }, expireAfterSeconds: 0 });
    else expect(ttl).toBeUndefined();
    expect(await store.ensureIndexes()).toBe(expiry);
    const record = await env.driverDb.collection(ADMIN_COLLECTIONS.idempotencyKeys).findOne({ _id: 'ttl' as never });
    expect(record?.expires_at).toEqual(at(DAY));
  });

  it('answers a repeat with the first result, and refuses the key for another request', async () => {
    expect(await store.claim('done', 'h1', DAY, at(0))).toEqual({ kind: 'claimed', id: 'done' });
    await store.complete('done', { id: 'n-1' });
    expect(await store.claim('done', 'h1', DAY, at(1000))).toEqual({ kind: 'done', result: { id: 'n-1' } });
    await expect(store.claim('done', 'h2', DAY, at(2000))).rejects.toThrow('different request');
  });

  it('lets a retry take over a claim its failed request left pending, once the lease has passed', async () => {
    expect((await store.claim('stuck', 'h', DAY, at(0))).kind).toBe('claimed');
    // The first request died without releasing: a retry within the lease waits, after it goes ahead.
    expect(await store.claim('stuck', 'h', DAY, at(PENDING_LEASE_MS - 1))).toEqual({ kind: 'pending' });
    expect(await store.claim('stuck', 'h', DAY, at(PENDING_LEASE_MS + 1))).toEqual({ kind: 'claimed', id: 'stuck' });
    await store.complete('stuck', 'ok');
    // A completed key is kept for the whole window, lease or not.
    expect(await store.claim('stuck', 'h', DAY, at(PENDING_LEASE_MS * 10))).toEqual({ kind: 'done', result: 'ok' });
  });

  it('frees a stored key after the 24 h window even where the TTL monitor has not deleted it', async () => {
    await store.claim('old', 'h', DAY, at(0));
    await store.complete('old', 'first');
    expect(await store.claim('old', 'h', DAY, at(DAY + 1))).toEqual({ kind: 'claimed', id: 'old' });
  });

  it('keeps claims that never expire (opens) without an expiry date', async () => {
    await store.claim('forever', 'open', Number.POSITIVE_INFINITY, at(0));
    const record = await env.driverDb.collection(ADMIN_COLLECTIONS.idempotencyKeys).findOne({ _id: 'forever' as never });
    expect(record).not.toHaveProperty('expires_at');
    await store.complete('forever', null);
    expect((await store.claim('forever', 'open', Number.POSITIVE_INFINITY, at(DAY * 365))).kind).toBe('done');
  });
});
