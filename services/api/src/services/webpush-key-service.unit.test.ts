import { describe, expect, it } from 'vitest';
import { generateVapidKey, summarizeWebPush, withNewVapidKey, type WebPushSummary } from '@herald/admin';
import { WebPushKeyService } from './webpush-key-service.ts';

function source(summaries: Record<string, WebPushSummary>) {
  const asked: string[] = [];
  return {
    asked,
    summary: async (projectId: string) => {
      asked.push(projectId);
      return summaries[projectId];
    },
  };
}

describe('WebPushKeyService', () => {
  const first = generateVapidKey();
  const summary = summarizeWebPush(withNewVapidKey(undefined, 'mailto:push@example.com', first));

  it("gives the current public key, and 404 for a project without keys", async () => {
    const service = new WebPushKeyService(source({ p1: summary }), { ttlMs: 1000, maxEntries: 10 });
    expect(await service.publicKey('p1')).toEqual({ public_key: first.public_key, key_id: first.id });
    await expect(service.publicKey('p2')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('has no Web Push keys') });
  });

  it('asks the store once per project within the time to live, and again after it', async () => {
    let now = 0;
    const store = source({ p1: summary });
    const service = new WebPushKeyService(store, { ttlMs: 1000, maxEntries: 10, now: () => now });
    await Promise.all([service.publicKey('p1'), service.publicKey('p1')]);
    await service.publicKey('p1');
    expect(store.asked).toEqual(['p1']);
    now = 1000;
    await service.publicKey('p1');
    expect(store.asked).toEqual(['p1', 'p1']);
  });

  it('remembers at most maxEntries projects, forgetting the oldest', async () => {
    const store = source({});
    const service = new WebPushKeyService(store, { ttlMs: 60_000, maxEntries: 2, now: () => 0 });
    for (const id of ['a', 'b', 'c', 'a']) await service.summary(id);
    expect(store.asked).toEqual(['a', 'b', 'c', 'a']);
  });

  it('does not keep a failure', async () => {
    let fail = true;
    const service = new WebPushKeyService(
      { summary: async () => (fail ? Promise.reject(new Error('store down')) : summary) },
      { ttlMs: 60_000, maxEntries: 10, now: () => 0 },
    );
    await expect(service.summary('p1')).rejects.toThrow('store down');
    fail = false;
    expect(await service.summary('p1')).toEqual(summary);
  });
});
