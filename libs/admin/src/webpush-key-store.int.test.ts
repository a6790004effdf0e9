import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { AdminStore } from './admin-store.ts';
import { CredentialStore } from './credential-store.ts';
import { generateSecretKey, parseSecretKey } from './secret-box.ts';
import { WebPushKeyDirectory, WebPushKeyStore, type WebPushRecord } from './webpush-key-store.ts';

let env: TestEnv;
let admin: AdminStore;
const secret = parseSecretKey(generateSecretKey());

beforeAll(async () => {
  env = await createTestEnv('webpush-key-store');
  admin = new AdminStore(env.mongo.db);
});
afterAll(async () => {
  await env?.close();
});

const newProject = async (name: string) => (await admin.createProject(name)).project._id;

describe('WebPushKeyStore', () => {
  it('keeps the key pairs sealed, the public summary readable without the secret key, and every key through rotations', async () => {
    const projectId = await newProject('webpush-keys');
    const store = new WebPushKeyStore(env.mongo.db, secret);
    const first = await store.generate(projectId, 'mailto:push@example.com');
    const second = await store.generate(projectId, undefined);
    expect(second.subject).toBe('mailto:push@example.com');
    expect(second.keys.map((key) => key.id)).toEqual([first.current_key_id, second.current_key_id]);
    expect(await new WebPushKeyDirectory(env.mongo.db).summary(projectId)).toEqual(second);

    const credential = await store.get(projectId);
    expect(credential?.keys.map((key) => key.public_key)).toEqual(second.keys.map((key) => key.public_key));
    const stored = await env.driverDb.collection<WebPushRecord>(ADMIN_COLLECTIONS.providerCredentials).findOne({ _id: projectId });
    for (const key of credential!.keys) expect(JSON.stringify(stored)).not.toContain(key.private_key);
  });

  it('lives beside the APNs and FCM credentials without disturbing them', async () => {
    const projectId = await newProject('webpush-beside');
    await new WebPushKeyStore(env.mongo.db, secret).generate(projectId, 'https://example.com/contact');
    expect(await new CredentialStore(env.mongo.db, secret).get(projectId)).toEqual({});
  });

  it('refuses another secret key, a missing project and a first key without subject', async () => {
    const projectId = await newProject('webpush-refusals');
    const store = new WebPushKeyStore(env.mongo.db, secret);
    await expect(store.generate(projectId, undefined)).rejects.toThrow(/subject is required/);
    await expect(store.generate('no-such-project', 'mailto:a@b.c')).rejects.toThrow(/does not exist/);
    await store.generate(projectId, 'mailto:a@example.com');
    await expect(new WebPushKeyStore(env.mongo.db, parseSecretKey(generateSecretKey())).get(projectId)).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    expect(await new WebPushKeyDirectory(env.mongo.db).summary('no-such-project')).toBeUndefined();
  });
});
