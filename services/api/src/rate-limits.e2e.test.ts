import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Rate limits (issue 17, item 4): the per-key limit counts the authenticated
 * key however `Authorization` is spelled; requests without a valid key are
 * limited per address (IPv6 by its /64); device-facing requests that prove
 * nothing cannot use up a project's budget for its real devices.
 * Low limits of this file's own API process; TRUST_PROXY lets the test speak
 * from several addresses.
 */
const LIMITS = { perAddress: 5, perProject: 8, perKey: 6, unauthenticated: 4 };
let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('rate-limits', {
    apiEnv: {
      HERALD_RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      RATE_LIMIT_DEVICE_PER_ADDRESS: String(LIMITS.perAddress),
      RATE_LIMIT_DEVICE_PER_PROJECT: String(LIMITS.perProject),
      RATE_LIMIT_BEARER_PER_KEY: String(LIMITS.perKey),
      RATE_LIMIT_UNAUTHENTICATED_PER_ADDRESS: String(LIMITS.unauthenticated),
    },
  });
  project = await harness.createProject('rate-limits');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

async function call(method: string, path: string, options: { from?: string; authorization?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.from !== undefined) headers['x-forwarded-for'] = options.from;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${harness.baseUrl}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { errors?: string[] } };
}
const openFrom = (from: string, projectId: string) => call('PUT', '/api/v1/notifications/0199a1c2-0000-7000-8000-000000000000/open', { from, body: { project_id: projectId, token: 't-1' } });
const registerFrom = (from: string, projectId: string, token: string) => call('POST', '/api/v1/devices', { from, body: { project_id: projectId, token: apnsToken(token), platform: 'ios' } });
const randomKey = () => `hrld_${Array.from({ length: 16 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')}_${'A'.repeat(32)}`;

describe('device-facing limits', () => {
  it('limit each client address, with 429, Retry-After and an errors body', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < LIMITS.perAddress; index += 1) statuses.push((await openFrom('203.0.113.1', 'project-a')).status);
    expect(statuses).not.toContain(429);
    const limited = await openFrom('203.0.113.1', 'project-a');
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(limited.body.errors?.[0]).toMatch(/too many requests from this address/);
    // Registration from the same address is limited too; another address is not.
    expect((await registerFrom('203.0.113.1', 'project-a', 'x')).status).toBe(429);
    expect((await openFrom('203.0.113.2', 'project-a')).status).not.toBe(429);
  });

  it('count IPv6 addresses by their /64', async () => {
    for (let index = 0; index < LIMITS.perAddress; index += 1) expect((await openFrom(`2001:db8:aa:1::${index + 1}`, 'project-v6')).status).not.toBe(429);
    expect((await openFrom('2001:db8:aa:1:ffff:ffff:ffff:ffff', 'project-v6')).status).toBe(429);
    expect((await openFrom('2001:db8:aa:2::1', 'project-v6')).status).not.toBe(429);
  });

  it("count only a project's successful requests: failures from a few addresses leave its real devices their budget", async () => {
    const victim = await harness.createProject('rate-limits-victim');
    // Requests that prove nothing: opens of notifications the device never got, PATCHes of unknown identifiers.
    for (let address = 1; address <= 4; address += 1) {
      for (let index = 0; index < LIMITS.perAddress; index += 1) {
        const failed = index % 2 === 0 ? await openFrom(`198.51.100.${address}`, victim.id) : await call('PATCH', `/api/v1/metadata?project_id=${victim.id}&identifier=nobody-${index}`, { from: `198.51.100.${address}`, body: { metadata: { a: 'b' } } });
        expect(failed.status).toBe(404);
      }
    }
    // Twenty failures later, the project's devices still register: its budget of 8 is untouched. They register with its key here,
    // as a new device without it spends a budget of its own (RATE_LIMIT_NEW_DEVICES_PER_PROJECT, device-facing-limits.e2e.test.ts).
    const registerWithKey = (from: string, token: string) =>
      call('POST', '/api/v1/devices', { from, authorization: `Bearer ${victim.api_key}`, body: { project_id: victim.id, token: apnsToken(token), platform: 'ios' } });
    for (let index = 0; index < LIMITS.perProject; index += 1) expect((await registerWithKey(`192.0.2.${index + 1}`, `real-${index}`)).status).toBe(201);
    // Successes do count: past the project's limit, whatever the address.
    const limited = await registerWithKey('192.0.2.100', 'real-late');
    expect(limited.status).toBe(429);
    expect(limited.body.errors?.[0]).toMatch(/for this project/);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect((await registerFrom('192.0.2.101', project.id, 'other-project')).status).toBe(201);
  });
});

describe('bearer limits', () => {
  it('count the authenticated key however Authorization is spelled', async () => {
    const keyed = await harness.createProject('rate-limits-key');
    const spellings = [`Bearer ${keyed.api_key}`, `bearer ${keyed.api_key}`, `BEARER        ${keyed.api_key}`, `Bearer  ${keyed.api_key}  `, `bEaReR ${keyed.api_key}`, `Bearer ${keyed.api_key}`];
    const statuses: number[] = [];
    for (const [index, authorization] of spellings.entries()) statuses.push((await call('GET', '/api/v1/topics', { authorization, from: `192.0.2.${200 + index}` })).status);
    expect(statuses).toEqual(Array.from({ length: LIMITS.perKey }, () => 200));
    for (const authorization of [`Bearer   ${keyed.api_key}`, `bearer ${keyed.api_key}`, `Bearer ${keyed.api_key}`]) {
      const limited = await call('GET', '/api/v1/topics', { authorization, from: '192.0.2.250' });
      expect(limited.status).toBe(429);
      expect(limited.body.errors?.[0]).toMatch(/with this API key/);
    }
    // Another project's key is not affected.
    expect((await call('GET', '/api/v1/topics', { authorization: `Bearer ${project.api_key}` })).status).toBe(200);
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  it('limit requests without a valid key per address, before any key is looked up', async () => {
    const from = '198.18.0.1';
    const attempts = [randomKey(), randomKey(), 'not-a-key', undefined];
    for (const key of attempts) {
      const response = await call('GET', '/api/v1/devices', { from, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) });
      expect(response.status).toBe(401);
    }
    for (const key of [randomKey(), randomKey(), undefined]) {
      const limited = await call('GET', '/api/v1/devices', { from, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) });
      expect(limited.status).toBe(429);
      expect(limited.body.errors?.[0]).toMatch(/without a valid API key from this address/);
    }
    // The address is refused before any key is looked up, a valid one included, until its window ends; other addresses are not affected.
    expect((await call('GET', '/api/v1/topics', { from, authorization: `Bearer ${project.api_key}` })).status).toBe(429);
    expect((await call('GET', '/api/v1/topics', { from: '198.18.0.2', authorization: `Bearer ${randomKey()}` })).status).toBe(401);
    expect((await call('GET', '/api/v1/topics', { from: '198.18.0.3', authorization: `Bearer ${project.api_key}` })).status).toBe(200);
  });
});

describe('metrics', () => {
  it("are served on the API's METRICS_PORT, not on its public port", async () => {
    expect((await fetch(`${harness.baseUrl}/metrics`)).status).toBe(404);
    const text = await waitFor('the 429s counted', async () => {
      const body = await (await fetch(harness.metricsUrls.api!)).text();
      return /herald_http_requests_total\{[^}]*route="\/api\/v1\/topics",status="429"[^}]*\} \d+/.test(body) ? body : undefined;
    });
    expect(text).toMatch(/route="\/api\/v1\/devices",status="429"/);
  });
});
