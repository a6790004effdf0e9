import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminStore } from '@herald/admin';
import { createEvent, deviceIdFor, TOPICS } from '@herald/events';
import { readLogToEnd } from '@herald/kafka';
import { createMetrics } from '@herald/metrics';
import { ReadModelRegistry } from '@herald/mongo';
import { startApiHarness, waitFor, type ApiHarness } from '@herald/testing';
import { buildApp } from './build-app.ts';

/**
 * The operator API (/admin/v1/dead-letters) against the real stack: only the
 * admin token opens it (never a project key), every request from an address
 * counts against its limit, and it lists and redrives what `herald dlq` does.
 */
const TOKEN = 'operator-token-for-the-e2e-test-0123456789';
const LIMIT = 100;
const DLQ = 'herald.device-events.dlq.herald.projector.devices.v1';
const GROUP = 'herald.projector.devices.v1';

let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('operator-dlq', { apiEnv: { HERALD_ADMIN_TOKEN: TOKEN, RATE_LIMIT_ADMIN_PER_ADDRESS: String(LIMIT) } });
  project = await harness.createProject('operator-dlq');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

interface Count { topic: string; group: string; kind: string; error: string; count: number }
interface Redrive { dry_run: boolean; redriven: Array<{ ref: string; source: string; group: string; kind: string; error: string; redrives: number }>; already_redriven: Array<{ ref: string; to: string }> }
const operator = (method: string, path: string, body?: unknown) => harness.request(method, path, { key: TOKEN, ...(body === undefined ? {} : { body }) });
const devices = () => harness.env.driverDb.collection<{ _id: string; token?: string }>('devices_v1');

describe('the operator API', () => {
  it('refuses anything but the admin token: none, a project key, a near miss', async () => {
    for (const key of [undefined, project.api_key, TOKEN.slice(0, -1), `${TOKEN}0`]) {
      const answer = await harness.request('GET', '/admin/v1/dead-letters', { key });
      expect(answer, String(key)).toEqual({ status: 401, body: { errors: ['Authorization must be "Bearer <admin token>" (HERALD_ADMIN_TOKEN)'] } });
    }
    expect((await harness.request('POST', '/admin/v1/dead-letters/redrive', { key: project.api_key, body: { dry_run: true } })).status).toBe(401);
    // Not in the public API document.
    const openapi = (await harness.request('GET', '/docs/json')).body as { paths?: Record<string, unknown> } | undefined;
    expect(Object.keys(openapi?.paths ?? {}).filter((path) => path.startsWith('/admin'))).toEqual([]);
  });

  it('lists dead letters by topic, group and error, and redrives one once (dry run first)', async () => {
    // A registration whose handler fails for good: a hand-edited document without a position (as in dlq.e2e.test.ts).
    const deviceId = deviceIdFor(project.id, 'operator-hand-edited');
    await devices().insertOne({ _id: deviceId, token: 'edited by hand' });
    await harness.env.producer.publish([createEvent('DeviceRegistered', { device_id: deviceId, token: 'operator-hand-edited', platform: 'android' }, { project_id: project.id })]);

    const counts = await waitFor('the registration dead-lettered and counted', async () => {
      const answer = await operator('GET', `/admin/v1/dead-letters?topic=${DLQ}`);
      const rows = (answer.body?.data ?? []) as Count[];
      return rows.length > 0 && rows;
    }, 60_000);
    expect(counts).toEqual([expect.objectContaining({ topic: DLQ, group: GROUP, kind: 'handler-error', count: 1 })]);
    expect(counts[0]!.error).toMatch(/^TypeError: Cannot read properties of undefined/);
    expect((await operator('GET', '/admin/v1/dead-letters?error=no-such-error')).body).toEqual({ data: [] });
    expect(await operator('GET', '/admin/v1/dead-letters?since=yesterday')).toEqual({ status: 400, body: { errors: [expect.stringContaining('since')] } });
    expect((await operator('POST', '/admin/v1/dead-letters/redrive', { dry_run: true, unknown: 1 })).status).toBe(400);

    const dry = (await operator('POST', '/admin/v1/dead-letters/redrive', { topic: DLQ, error: 'TypeError', dry_run: true })).body?.data as Redrive;
    expect(dry).toMatchObject({ dry_run: true, already_redriven: [] });
    expect(dry.redriven).toEqual([expect.objectContaining({ group: GROUP, kind: 'handler-error', redrives: 0 })]);
    const { ref } = dry.redriven[0]!;
    expect((await readLogToEnd(harness.env.kafka, [TOPICS.deviceEvents])).filter((record) => record.headers['dlq.redrive.id'] === ref)).toEqual([]);

    // The fix, then the redrive: written back once; a second redrive skips it.
    await devices().deleteOne({ _id: deviceId });
    const real = await operator('POST', '/admin/v1/dead-letters/redrive', { topic: DLQ, error: 'TypeError' });
    expect(real.status).toBe(200);
    expect((real.body?.data as Redrive).redriven.map((letter) => letter.ref)).toEqual([ref]);
    const again = (await operator('POST', '/admin/v1/dead-letters/redrive', { topic: DLQ, error: 'TypeError' })).body?.data as Redrive;
    expect(again).toMatchObject({ dry_run: false, redriven: [], already_redriven: [expect.objectContaining({ ref })] });
    expect((await readLogToEnd(harness.env.kafka, [TOPICS.deviceEvents])).filter((record) => record.headers['dlq.redrive.id'] === ref)).toHaveLength(1);
    await waitFor('the redriven registration projected', async () => (await devices().findOne({ _id: deviceId }))?.token === 'operator-hand-edited', 30_000);
  });

  it('counts every request from an address, right token or not, and answers 429 past the limit', async () => {
    let status = 0;
    for (let n = 0; n <= LIMIT && status !== 429; n += 1) status = (await harness.request('GET', '/admin/v1/dead-letters', { key: `wrong-${n}` })).status;
    expect(status).toBe(429);
    // The right token from that address waits out the window too.
    const refused = await operator('GET', '/admin/v1/dead-letters');
    expect(refused.status).toBe(429);
    expect(refused.body?.errors).toEqual([expect.stringMatching(/^too many requests to the operator API from this address; retry in \d+ s$/)]);
  });

  it('does not exist without HERALD_ADMIN_TOKEN', async () => {
    const db = harness.env.mongo.db;
    const app = await buildApp({ producer: harness.env.producer, db, admin: new AdminStore(db), readModels: new ReadModelRegistry(db), metrics: createMetrics('api'), checkReady: async () => [], kafka: harness.env.kafka }, harness.env.logger);
    try {
      for (const [method, url] of [['GET', '/admin/v1/dead-letters'], ['POST', '/admin/v1/dead-letters/redrive']] as const) {
        const answer = await app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, ...(method === 'POST' ? { payload: '{}' } : {}) });
        expect(answer.statusCode, `${method} ${url}`).toBe(404);
      }
    } finally {
      await app.close();
    }
  });
});
