import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { NotFoundError, ValidationError } from '@herald/errors';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { createTestApnsKey, createTestServiceAccount } from '@herald/fake-providers';
import { AdminStore } from './admin-store.ts';
import { CredentialStore, type ProviderCredentialsRecord } from './credential-store.ts';
import { generateSecretKey, parseSecretKey } from './secret-box.ts';
import { validateFcmServiceAccount, type ApnsCredential } from './provider-credentials.ts';

let env: TestEnv;
let store: CredentialStore;
let admin: AdminStore;

beforeAll(async () => {
  env = await createTestEnv('credential-store');
  admin = new AdminStore(env.mongo.db);
  store = new CredentialStore(env.mongo.db, parseSecretKey(generateSecretKey()));
});
afterAll(async () => {
  await env?.close();
});

const newProject = async (name: string) => (await admin.createProject(name)).project._id;
const apnsCredential = (sandbox = false): ApnsCredential => {
  const key = createTestApnsKey();
  return { keyPem: key.keyPem, keyId: key.keyId, teamId: key.teamId, bundleId: 'com.example.app', sandbox };
};
const raw = (projectId: string) => env.driverDb.collection<ProviderCredentialsRecord>(ADMIN_COLLECTIONS.providerCredentials).findOne({ _id: projectId });

describe('CredentialStore', () => {
  it('decrypts back exactly what was set, for both providers', async () => {
    const projectId = await newProject('both');
    const apns = apnsCredential(true);
    const fcm = validateFcmServiceAccount(createTestServiceAccount().serviceAccount);
    const setAt = new Date('2025-03-04T05:06:07.000Z');
    expect(await store.setApns(projectId, apns, setAt)).toEqual({ keyId: apns.keyId, teamId: apns.teamId, bundleId: 'com.example.app', sandbox: true, set_at: setAt });
    await store.setFcm(projectId, fcm, setAt);

    expect(await store.get(projectId)).toEqual({ apns, fcm });
    expect(await store.describe(projectId)).toEqual({
      apns: { keyId: apns.keyId, teamId: apns.teamId, bundleId: 'com.example.app', sandbox: true, set_at: setAt },
      fcm: { project_id: fcm.serviceAccount.project_id, client_email: fcm.serviceAccount.client_email, set_at: setAt },
    });
    expect(await store.listConfigured()).toContain(projectId);
  });

  it('stores no key material in the clear', async () => {
    const projectId = await newProject('at-rest');
    const apns = apnsCredential();
    const fcm = validateFcmServiceAccount(createTestServiceAccount().serviceAccount);
    await store.setApns(projectId, apns);
    await store.setFcm(projectId, fcm);
    const stored = JSON.stringify(await raw(projectId));
    expect(stored).not.toContain('PRIVATE KEY');
    expect(stored).not.toContain(apns.keyPem.split('\n')[1]);
    expect(stored).not.toContain(fcm.serviceAccount.private_key.split('\n')[1]);
  });

  it('replaces one provider without touching the other', async () => {
    const projectId = await newProject('replace');
    const first = apnsCredential();
    const second = apnsCredential(true);
    const fcm = validateFcmServiceAccount(createTestServiceAccount().serviceAccount);
    await store.setApns(projectId, first);
    await store.setFcm(projectId, fcm);
    await store.setApns(projectId, second);
    expect(await store.get(projectId)).toEqual({ apns: second, fcm });
  });

  it('gives nothing for a project without credentials, and is not listed', async () => {
    const projectId = await newProject('empty');
    expect(await store.get(projectId)).toEqual({});
    expect(await store.describe(projectId)).toEqual({});
    expect(await store.listConfigured()).not.toContain(projectId);
  });

  it('refuses unknown projects with NotFoundError and stores nothing', async () => {
    await expect(store.setApns('no-such-project', apnsCredential())).rejects.toThrow(NotFoundError);
    await expect(store.setFcm('no-such-project', validateFcmServiceAccount(createTestServiceAccount().serviceAccount))).rejects.toThrow(NotFoundError);
    await expect(store.get('no-such-project')).rejects.toThrow(NotFoundError);
    await expect(store.describe('no-such-project')).rejects.toThrow(NotFoundError);
    expect(await raw('no-such-project')).toBeNull();
  });

  it('refuses an invalid credential and stores nothing', async () => {
    const projectId = await newProject('invalid');
    await expect(store.setApns(projectId, { ...apnsCredential(), keyId: 'short' })).rejects.toThrow(ValidationError);
    expect(await raw(projectId)).toBeNull();
  });

  it('another HERALD_SECRET_KEY cannot open them, nor can another project', async () => {
    const projectId = await newProject('other-key');
    await store.setApns(projectId, apnsCredential());
    const other = new CredentialStore(env.mongo.db, parseSecretKey(generateSecretKey()));
    await expect(other.get(projectId)).rejects.toMatchObject({ code: 'INVALID_CONFIG', message: expect.stringContaining('HERALD_SECRET_KEY') });
    // Summaries are readable without decrypting.
    expect(await other.describe(projectId)).toHaveProperty('apns');

    // A sealed record copied to another project does not open there (aad binds project and provider).
    const victim = await newProject('copy-target');
    const collection = env.driverDb.collection<ProviderCredentialsRecord>(ADMIN_COLLECTIONS.providerCredentials);
    const record = (await raw(projectId))!;
    await collection.insertOne({ ...record, _id: victim });
    await expect(store.get(victim)).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
  });
});
