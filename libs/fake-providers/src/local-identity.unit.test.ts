import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApnsKey, createTestServiceAccount } from './test-keys.ts';
import { localProviderIdentity, storeIdentity, type CredentialSink } from './local-identity.ts';

const dirs: string[] = [];
const tempFile = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'herald-identity-'));
  dirs.push(dir);
  return join(dir, 'local-providers.json');
};
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('localProviderIdentity', () => {
  it('creates an identity with an HMS app (numeric ids, 64-hex secret), kept 0600 and read back the same', async () => {
    const file = await tempFile();
    expect(await localProviderIdentity(file, { create: false })).toBeUndefined();
    const created = await localProviderIdentity(file, { create: true });
    expect(created?.hms).toMatchObject({ appId: expect.stringMatching(/^\d{9}$/), clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(created?.hms?.clientId).toBe(created?.hms?.appId);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await localProviderIdentity(file, { create: true })).toEqual(created);
  });

  it('gives a file written before HMS an HMS app, keeping its APNs key and service account', async () => {
    const file = await tempFile();
    const old = { apns: createTestApnsKey(), fcm: createTestServiceAccount() };
    await writeFile(file, JSON.stringify(old));
    expect((await localProviderIdentity(file, { create: false }))?.hms).toBeUndefined();
    const upgraded = await localProviderIdentity(file, { create: true });
    expect(upgraded).toMatchObject({ apns: { keyId: old.apns.keyId }, fcm: { clientEmail: old.fcm.clientEmail } });
    expect(upgraded?.hms).toBeDefined();
    expect(JSON.parse(await readFile(file, 'utf8')).hms).toEqual(upgraded?.hms);
  });

  it('stores HMS credentials only when the identity has an HMS app', async () => {
    const calls: string[] = [];
    const sink: CredentialSink = {
      setApns: async () => calls.push('apns'),
      setFcm: async () => calls.push('fcm'),
      setHms: async () => calls.push('hms'),
    };
    const identity = { apns: createTestApnsKey(), fcm: createTestServiceAccount() };
    await storeIdentity(sink, 'p1', identity);
    expect(calls).toEqual(['apns', 'fcm']);
    await storeIdentity(sink, 'p1', { ...identity, hms: { appId: '101', clientId: '101', clientSecret: 'x'.repeat(64) } });
    expect(calls).toEqual(['apns', 'fcm', 'apns', 'fcm', 'hms']);
  });
});
