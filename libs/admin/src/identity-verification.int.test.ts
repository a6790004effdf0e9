import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { AdminStore } from './admin-store.ts';
import { isDeviceAuthSecret } from './device-auth.ts';

let env: TestEnv;
let admin: AdminStore;

beforeAll(async () => {
  env = await createTestEnv('identity-verification');
  admin = new AdminStore(env.mongo.db);
});
afterAll(async () => {
  await env?.close();
});

const newProject = async (name: string) => (await admin.createProject(name)).project._id;

describe('AdminStore identity verification', () => {
  it('is off for a new project and null for an unknown one', async () => {
    const projectId = await newProject('fresh');
    expect(await admin.identityVerification(projectId)).toEqual({ enabled: false });
    expect(await admin.identityVerification('no-such-project')).toBeNull();
    await expect(admin.enableIdentityVerification('no-such-project')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(admin.disableIdentityVerification('no-such-project')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('issues a secret when turned on, keeps it when turned on again, replaces it on rotate, forgets it when off', async () => {
    const projectId = await newProject('cycle');
    const at = new Date('2026-01-02T03:04:05.000Z');
    const first = await admin.enableIdentityVerification(projectId, {}, at);
    expect(isDeviceAuthSecret(first.secret!)).toBe(true);
    expect(await admin.identityVerification(projectId)).toEqual({ enabled: true, secret: first.secret });

    expect(await admin.enableIdentityVerification(projectId, {}, new Date())).toEqual({ secret: undefined, enabled_at: at });
    expect(await admin.identityVerification(projectId)).toEqual({ enabled: true, secret: first.secret });

    const rotated = await admin.enableIdentityVerification(projectId, { rotate: true });
    expect(rotated.secret).not.toBe(first.secret);
    expect(await admin.identityVerification(projectId)).toEqual({ enabled: true, secret: rotated.secret });

    expect(await admin.disableIdentityVerification(projectId)).toEqual({ was_enabled: true });
    expect(await admin.identityVerification(projectId)).toEqual({ enabled: false });
    expect(await admin.disableIdentityVerification(projectId)).toEqual({ was_enabled: false });
  });

  it('concurrent "on"s issue one secret: exactly one caller gets it, and it is the stored one', async () => {
    const projectId = await newProject('race');
    const results = await Promise.all(Array.from({ length: 5 }, () => admin.enableIdentityVerification(projectId)));
    const issued = results.filter((result) => result.secret !== undefined);
    expect(issued).toHaveLength(1);
    expect(await admin.identityVerification(projectId)).toEqual({ enabled: true, secret: issued[0]!.secret });
  });

  it('never hands the secret out with a project', async () => {
    const projectId = await newProject('quiet');
    await admin.enableIdentityVerification(projectId);
    const stored = await env.driverDb.collection(ADMIN_COLLECTIONS.projects).findOne({ _id: projectId as never });
    expect(stored).toHaveProperty('device_auth.secret');
    expect(await admin.findProject(projectId)).not.toHaveProperty('device_auth');
    for (const project of await admin.listProjects()) expect(project).not.toHaveProperty('device_auth');
  });
});
