import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { AdminStore } from './admin-store.ts';

let env: TestEnv;
let admin: AdminStore;

beforeAll(async () => {
  env = await createTestEnv('project-settings');
  admin = new AdminStore(env.mongo.db);
});
afterAll(async () => {
  await env?.close();
});

describe('AdminStore project settings', () => {
  it('lets devices create topics only once asked, and stops again', async () => {
    const { project } = await admin.createProject('device-topics');
    expect((await admin.findProject(project._id))?.device_topics).toBeUndefined();
    expect(await admin.setDeviceTopics(project._id, true)).toBe(true);
    expect((await admin.findProject(project._id))?.device_topics).toBe(true);
    expect(await admin.setDeviceTopics(project._id, false)).toBe(true);
    expect((await admin.findProject(project._id))?.device_topics).toBeUndefined();
    expect(await admin.setDeviceTopics('no-such-project', true)).toBe(false);
  });

  it("keeps a project's own device quota until it goes back to the default", async () => {
    const { project } = await admin.createProject('device-quota');
    expect(await admin.setDeviceQuota(project._id, 5)).toBe(true);
    expect((await admin.findProject(project._id))?.device_quota).toBe(5);
    expect(await admin.setDeviceQuota(project._id, undefined)).toBe(true);
    expect((await admin.findProject(project._id))?.device_quota).toBeUndefined();
    expect(await admin.setDeviceQuota('no-such-project', 5)).toBe(false);
  });

  it('makes one stream key per project on first use, the same for concurrent callers, never shown by the getters', async () => {
    const { project } = await admin.createProject('stream-key');
    const keys = await Promise.all([admin.streamKey(project._id), admin.streamKey(project._id), admin.streamKey(project._id)]);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(1);
    expect(await admin.streamKey(project._id)).toBe(keys[0]);
    const other = (await admin.createProject('stream-key-other')).project;
    expect(await admin.streamKey(other._id)).not.toBe(keys[0]);
    expect(await admin.streamKey('no-such-project')).toBeNull();
    expect(JSON.stringify(await admin.findProject(project._id))).not.toContain(keys[0]!);
    expect(JSON.stringify(await admin.listProjects())).not.toContain(keys[0]!);
  });
});
