import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { AdminStore } from '@herald/admin';
import { CapStore } from './cap-store.ts';
import { capsOf } from './project-caps.ts';

/** The cap state and the project settings on the real store (FerretDB in tests). */
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv('cap-store');
});
afterAll(async () => {
  await env?.close();
});

describe('CapStore', () => {
  it("reads a page's keys in one query and writes what changed; projects do not see each other's", async () => {
    const caps = new CapStore(env.mongo.db);
    expect(await caps.read('p1', ['u:ann', 'd:x'])).toEqual(new Map());
    await caps.write('p1', new Map([['u:ann', [{ n: 'n1', at: 1_000, d: 'a1' }]], ['d:x', [{ n: 'n1', at: 1_000, d: 'x' }]]]), new Date());
    await caps.write('p1', new Map([['u:ann', [{ n: 'n1', at: 1_000, d: 'a1' }, { n: 'n2', at: 2_000, d: 'a2' }]]]), new Date());
    const state = await caps.read('p1', ['u:ann', 'd:x', 'd:y']);
    expect(state).toEqual(new Map([['u:ann', [{ n: 'n1', at: 1_000, d: 'a1' }, { n: 'n2', at: 2_000, d: 'a2' }]], ['d:x', [{ n: 'n1', at: 1_000, d: 'x' }]]]));
    expect(await caps.read('p2', ['u:ann'])).toEqual(new Map());
  });

  it("survives two steps writing a user's first document at once (a duplicate key is written again)", async () => {
    const caps = new CapStore(env.mongo.db);
    const keys = Array.from({ length: 20 }, (_, n) => `u:user-${n}`);
    const write = (device: string) => caps.write('p3', new Map(keys.map((key) => [key, [{ n: 'n1', at: 5_000, d: device }]])), new Date());
    await Promise.all([write('a'), write('b'), write('c')]);
    const state = await caps.read('p3', keys);
    expect(state.size).toBe(20);
    for (const entries of state.values()) expect(entries).toHaveLength(1);
  });
});

describe('project caps settings', () => {
  it('stores a frequency cap and quiet hours, and gives a send them with the project zone', async () => {
    const admin = new AdminStore(env.mongo.db);
    const { project } = await admin.createProject('caps');
    expect(capsOf(await admin.findProject(project._id))).toBeUndefined();
    expect(await admin.setFrequencyCap(project._id, { max: 3, window_seconds: 86_400, per: 'user', on_cap: 'defer' })).toBe(true);
    expect(await admin.setQuietHours(project._id, { start: '22:00', end: '08:00' })).toBe(true);
    expect(await admin.setDefaultTimezone(project._id, 'Europe/Paris')).toBe(true);
    expect(capsOf(await admin.findProject(project._id))).toEqual({
      frequency_cap: { max: 3, window_seconds: 86_400, per: 'user', on_cap: 'defer' },
      quiet_hours: { start: '22:00', end: '08:00', timezone: 'Europe/Paris' },
    });
    expect(await admin.setFrequencyCap(project._id, undefined)).toBe(true);
    expect(await admin.setQuietHours(project._id, undefined)).toBe(true);
    expect(capsOf(await admin.findProject(project._id))).toBeUndefined();
    expect(await admin.setFrequencyCap('no-such-project', { max: 1, window_seconds: 60, per: 'device', on_cap: 'drop' })).toBe(false);
  });
});
