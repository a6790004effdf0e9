import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness } from '@herald/testing';

// Low limits of this file's own API process; TRUST_PROXY lets the test speak from several addresses.
const LIMITS = { perAddress: 5, perProject: 8, perKey: 6 };
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
    },
  });
  project = await harness.createProject('rate-limits');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

async function call(method: string, path: string, options: { from?: string; key?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.from !== undefined) headers['x-forwarded-for'] = options.from;
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${harness.baseUrl}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { errors?: string[] } };
}
const openFrom = (from: string, projectId: string) => call('PUT', `/api/v1/notifications/n-1/open?project_id=${projectId}&token=t-1`, { from });

describe('rate limits', () => {
  it('limits device-facing requests per client address, with 429, Retry-After and an errors body', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < LIMITS.perAddress; index += 1) statuses.push((await openFrom('203.0.113.1', 'project-a')).status);
    expect(statuses).not.toContain(429);
    const limited = await openFrom('203.0.113.1', 'project-a');
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(limited.body.errors?.[0]).toMatch(/too many requests from this address/);
    // Registration from the same address is limited too; another address is not.
    const register = await call('POST', '/api/v1/devices', { from: '203.0.113.1', body: { project_id: 'project-a', token: 'x', platform: 'ios' } });
    expect(register.status).toBe(429);
    expect((await openFrom('203.0.113.2', 'project-a')).status).not.toBe(429);
  });

  it('limits device-facing requests per project, whatever the address', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < LIMITS.perProject; index += 1) statuses.push((await openFrom(`198.51.100.${index + 1}`, 'project-b')).status);
    expect(statuses).not.toContain(429);
    const limited = await call('PATCH', `/api/v1/metadata?project_id=project-b&identifier=u`, { from: '198.51.100.200', body: { metadata: { a: 'b' } } });
    expect(limited.status).toBe(429);
    expect(limited.body.errors?.[0]).toMatch(/for this project/);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // The project named in the body counts the same as one named in the query.
    const register = await call('POST', '/api/v1/devices', { from: '198.51.100.201', body: { project_id: 'project-b', token: 'y', platform: 'ios' } });
    expect(register.status).toBe(429);
    expect((await openFrom('198.51.100.202', 'project-c')).status).not.toBe(429);
  });

  it('limits bearer requests per API key, before the key is checked', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < LIMITS.perKey; index += 1) statuses.push((await call('GET', '/api/v1/topics', { key: project.api_key })).status);
    expect(statuses).toEqual(Array.from({ length: LIMITS.perKey }, () => 200));
    const limited = await call('GET', '/api/v1/topics', { key: project.api_key });
    expect(limited.status).toBe(429);
    expect(limited.body.errors?.[0]).toMatch(/with this API key/);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // Guessing keys is counted per guessed key; another project's key is not affected.
    const other = await harness.createProject('rate-limits-other');
    expect((await call('GET', '/api/v1/topics', { key: other.api_key })).status).toBe(200);
    expect((await call('GET', '/healthz')).status).toBe(200);
  });
});

describe('metrics', () => {
  it('are served on the API\'s METRICS_PORT, not on its public port', async () => {
    expect((await fetch(`${harness.baseUrl}/metrics`)).status).toBe(404);
    const text = await (await fetch(harness.metricsUrls.api!)).text();
    expect(text).toMatch(/herald_http_requests_total\{[^}]*route="\/api\/v1\/topics",status="429"[^}]*\} \d+/);
  });
});
