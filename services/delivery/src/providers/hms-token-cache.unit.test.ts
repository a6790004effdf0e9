import { describe, expect, it } from 'vitest';
import { HmsTokenCache, type HmsCredential } from './hms-token-cache.ts';

const credential: HmsCredential = { appId: '101234567', clientId: '101234567', clientSecret: 'secret-1' };

function setup(expiresIn = 3600) {
  let clock = 1_000_000;
  const fetched: string[] = [];
  const releases: Array<() => void> = [];
  const cache = new HmsTokenCache(async (given) => {
    fetched.push(given.clientSecret);
    await new Promise<void>((resolve) => releases.push(resolve));
    return { accessToken: `token-${fetched.length}`, expiresIn };
  }, () => clock);
  const releaseAll = () => releases.splice(0).forEach((release) => release());
  return { cache, fetched, releaseAll, advance: (ms: number) => (clock += ms) };
}

describe('HmsTokenCache', () => {
  it('one fetch for concurrent callers, then the cached token', async () => {
    const { cache, fetched, releaseAll } = setup();
    const waiting = Promise.all([cache.token(credential), cache.token(credential), cache.token(credential)]);
    await Promise.resolve();
    releaseAll();
    expect(await waiting).toEqual(['token-1', 'token-1', 'token-1']);
    expect(await cache.token(credential)).toBe('token-1');
    expect(fetched).toHaveLength(1);
  });

  it('refreshes five minutes before expiry, not earlier', async () => {
    const { cache, fetched, releaseAll, advance } = setup(3600);
    const first = cache.token(credential);
    await Promise.resolve();
    releaseAll();
    await first;
    advance(3600_000 - 5 * 60_000 - 1);
    expect(await cache.token(credential)).toBe('token-1');
    advance(1);
    const second = cache.token(credential);
    await Promise.resolve();
    releaseAll();
    expect(await second).toBe('token-2');
    expect(fetched).toHaveLength(2);
  });

  it('an invalidated token is fetched again; a stale invalidation leaves the newer token', async () => {
    const { cache, releaseAll } = setup();
    const first = cache.token(credential);
    await Promise.resolve();
    releaseAll();
    await first;
    cache.invalidate(credential, 'token-1');
    const second = cache.token(credential);
    await Promise.resolve();
    releaseAll();
    expect(await second).toBe('token-2');
    cache.invalidate(credential, 'token-1');
    expect(await cache.token(credential)).toBe('token-2');
  });

  it('a failed fetch is not cached and lets the next caller try', async () => {
    let calls = 0;
    const cache = new HmsTokenCache(async () => {
      calls += 1;
      if (calls === 1) throw new Error('ECONNRESET');
      return { accessToken: 'ok', expiresIn: 3600 };
    });
    await expect(cache.token(credential)).rejects.toThrow('ECONNRESET');
    expect(await cache.token(credential)).toBe('ok');
  });

  it('another secret of the same app is another entry', async () => {
    let calls = 0;
    const cache = new HmsTokenCache(async (given) => ({ accessToken: `${given.clientSecret}-${++calls}`, expiresIn: 3600 }));
    expect(await cache.token(credential)).toBe('secret-1-1');
    expect(await cache.token({ ...credential, clientSecret: 'secret-2' })).toBe('secret-2-2');
  });
});
