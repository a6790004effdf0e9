import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor, TOPICS } from '@herald/events';
import { createTopics, startApiHarness, waitFor, waitForProjectionCaughtUp, waitForReceiptsCaughtUp, type ApiHarness, apnsToken, apnsTokenPrefix } from '@herald/testing';

/**
 * The endpoints the console reads, over the real stack: the dry-run counts
 * what a send then targets (the fan-out's predicate), the overview's
 * outcomes of the last 24 h, a notification's report, its receipts as CSV,
 * devices by user, and the security headers.
 */
type Outcomes = Record<'delivered' | 'failed' | 'invalid' | 'cancelled' | 'opened', number>;
type Overview = { window_hours: number; outcomes: Outcomes; outcomes_24h: Outcomes; since: string; hours: unknown[]; devices: unknown };
type Counts = Record<'targeted' | 'sent' | 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'opened', number>;
interface Receipt {
  device_id: string;
  provider: string;
  outcome: string;
  reason: string | null;
  attempts: number | null;
  delivered_at: string | null;
  opened_at: string | null;
  reported_at: string;
}

let harness: ApiHarness;
let project: { id: string; api_key: string };
let other: { id: string; api_key: string };
/** A console build of this test's own (the console's e2e test rebuilds the real one meanwhile). */
let consoleDir: string;

const call = async <T>(method: string, path: string, body?: unknown, key = project.api_key) => {
  const response = await harness.request(method, path, { key, body });
  return { status: response.status, body: response.body as T };
};
const register = (token: string, platform: 'ios' | 'android', extra: Record<string, unknown> = {}, projectId = project.id) =>
  harness.request('POST', '/api/v1/devices', { key: projectId === project.id ? project.api_key : other.api_key, body: { project_id: projectId, token, platform, ...extra } });
const sent = (id: string) =>
  waitFor(`notification ${id} sent`, async () => {
    const { body } = await call<{ data?: { status: string; counts: Counts } }>('GET', `/api/v1/notifications/${id}`);
    return body.data?.status === 'sent' ? body.data : undefined;
  }, 60_000);

beforeAll(async () => {
  consoleDir = await mkdtemp(join(tmpdir(), 'herald-console-'));
  await mkdir(join(consoleDir, 'assets'));
  await writeFile(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(join(consoleDir, 'assets', 'app-1234.js'), 'export {};');
  harness = await startApiHarness('console-reads', { delivery: true, apiEnv: { CONSOLE_DIR: consoleDir }, apnsRules: [{ prefix: apnsTokenPrefix('gone-'), status: 410, reason: 'Unregistered' }] });
  project = await harness.createProject('console-reads');
  other = await harness.createProject('console-reads-other');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['news', 'sport']);
  await createTopics(harness, other.api_key, ['news']);
  const registrations = [
    register(apnsToken('ios-1'), 'ios', { topics: ['news'] }),
    register(apnsToken('ios-2'), 'ios', { metadata: { plan: 'pro' } }),
    register(apnsToken('gone-1'), 'ios', { topics: ['news'] }),
    register(apnsToken('gone-2'), 'ios'),
    register('android-1', 'android', { topics: ['news'], metadata: { plan: 'pro' } }),
    register('android-2', 'android', { external_id: 'user-7' }),
    register('android-3', 'android', { external_id: 'user-7', topics: ['sport'] }),
    register('android-off', 'android', { topics: ['news'] }),
    register(apnsToken('theirs-1'), 'ios', { topics: ['news'] }, other.id),
  ];
  for (const response of await Promise.all(registrations)) expect(response.status).toBe(201);
  // The listing's count comes from counters written before the documents: wait for both (DELETE below reads the document).
  await waitFor('devices projected', async () => {
    const { body } = await call<{ data: unknown[]; pagination: { count: number } }>('GET', '/api/v1/devices');
    return body.pagination.count === 8 && body.data.length === 8;
  });
  expect((await call('DELETE', `/api/v1/devices/${deviceIdFor(project.id, 'android-off')}`)).status).toBe(204);
  await waitFor('a device unregistered', async () => (await call<{ data: { status: string } }>('GET', `/api/v1/devices/${deviceIdFor(project.id, 'android-off')}`)).body.data.status === 'inactive');
}, 180_000);

afterAll(async () => {
  await harness?.stop();
  await rm(consoleDir, { recursive: true, force: true });
});

describe('the dry-run', () => {
  it('counts what a send to the same targets then targets, by platform, and sends nothing', async () => {
    const targets = ['news', apnsToken('ios-2'), deviceIdFor(project.id, apnsToken('ios-2')), { metadata: { plan: 'pro' } }, { external_id: 'user-7' }, 'nobody'];
    const { status, body } = await call<{ data: { total: number; by_platform: { ios: number; android: number } } }>('POST', '/api/v1/notifications/dry-run', { notification: { title: 'T', body: 'B', targets } });
    expect(status).toBe(200);
    // news: ios-1, gone-1, android-1 (android-off is inactive; theirs-1 is another project's); ios-2 by token, id and metadata; user-7: android-2, android-3.
    expect(body.data).toEqual({ total: 6, by_platform: { ios: 3, android: 3, web: 0, huawei: 0 } });
    expect((await call<{ pagination: { count: number } }>('GET', '/api/v1/notifications')).body.pagination.count).toBe(0);

    const created = await call<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: 'T', body: 'B', targets } });
    const data = await sent(created.body.data.id);
    expect(data.counts.targeted).toBe(body.data.total);
  });

  it('refuses what a send refuses, naming every field at once', async () => {
    const { status, body } = await call<{ errors: string[] }>('POST', '/api/v1/notifications/dry-run', { notification: { title: 'T', body: 'x'.repeat(4000), targets: [], image: 'http://x', data: { aps: '1' } } });
    expect(status).toBe(422);
    expect(body.errors.join('\n')).toMatch(/notification\.targets/);
    expect(body.errors.join('\n')).toMatch(/notification\.image/);
    expect(body.errors.join('\n')).toMatch(/notification\.data\.aps is a reserved key/);
    expect((await call('POST', '/api/v1/notifications/dry-run', { notification: { title: 'T', body: 'B', targets: ['news'] } }, 'not-a-key')).status).toBe(401);
    // A metadata key the store may not accept as a path: counted, or refused naming the targets; never a 500.
    const odd = await call<{ errors?: string[] }>('POST', '/api/v1/notifications/dry-run', { notification: { title: 'T', body: 'B', targets: [{ metadata: { 'a b': 'c' } }] } });
    expect([200, 422]).toContain(odd.status);
    if (odd.status === 422) expect(odd.body.errors).toEqual(['notification.targets cannot be evaluated by the store (check the metadata filter keys)']);
  });
});

describe('a notification report, its CSV and the overview', () => {
  it('groups failures by reason, buckets outcomes over time, streams every receipt as CSV, and counts the last 24 h', async () => {
    // gone-1 left with the first send (Unregistered): gone-2 is this send's invalid token.
    const created = await call<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: 'Report', body: 'B', targets: ['news', apnsToken('gone-2')] } });
    const id = created.body.data.id;
    const data = await sent(id);
    expect(data.counts).toMatchObject({ targeted: 3, delivered: 2, invalid: 1 });
    // The report is a projection of its own, fed batch by batch: wait until it holds all three outcomes, then check which they are.
    type Report = { failures: unknown[]; timeline: Array<Record<string, number | string>> };
    const sum = (report: Report, key: string) => report.timeline.reduce((total, bucket) => total + Number(bucket[key]), 0);
    const report = await waitFor('the report projected', async () => {
      const { body } = await call<{ data: Report }>('GET', `/api/v1/notifications/${id}/report`);
      return sum(body.data, 'delivered') + sum(body.data, 'invalid') + sum(body.data, 'failed') === 3 ? body.data : undefined;
    });
    expect(report.failures).toEqual([{ provider: 'apns', outcome: 'invalid', reason: 'Unregistered', count: 1 }]);
    expect([sum(report, 'delivered'), sum(report, 'invalid'), sum(report, 'failed')]).toEqual([2, 1, 0]);
    expect(report.timeline.every((bucket) => bucket.span === 'minute')).toBe(true);

    await waitForReceiptsCaughtUp(harness.env.kafka);
    const receipts = (await call<{ data: Receipt[] }>('GET', `/api/v1/notifications/${id}/receipts?limit=100`)).body.data;
    expect(receipts).toHaveLength(3);
    const csv = await fetch(`${harness.baseUrl}/api/v1/notifications/${id}/receipts.csv`, { headers: { authorization: `Bearer ${project.api_key}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('x-content-type-options')).toBe('nosniff');
    const [header, ...lines] = (await csv.text()).trimEnd().split('\r\n');
    expect(header).toBe('device_id,provider,outcome,reason,attempts,delivered_at,opened_at,reported_at');
    expect(lines).toEqual(receipts.map((row) => [row.device_id, row.provider, row.outcome, row.reason ?? '', row.attempts ?? '', row.delivered_at ?? '', row.opened_at ?? '', row.reported_at].join(',')));
    expect((await call('GET', `/api/v1/notifications/${id}/receipts.csv`, undefined, other.api_key)).status).toBe(404);
    expect((await call('GET', `/api/v1/notifications/${id}/report`, undefined, other.api_key)).status).toBe(404);

    // Both sends of this file: 2 + 1 invalid here, 5 + 1 invalid in the dry-run's send; an open counts too.
    expect((await harness.request('PUT', `/api/v1/notifications/${id}/open`, { body: { project_id: project.id, token: apnsToken('ios-1') } })).status).toBe(204);
    // The overview reads the counters of two projections, each fed batch by batch: the reports' outcomes (a send's
    // delivered batch may be counted before its invalid one) and the devices' (gone-2's deactivation is a device
    // event). Both catch up with what was written, then the overview is checked whole.
    await Promise.all([
      waitForProjectionCaughtUp(harness.env.kafka, 'notification_reports', TOPICS.notificationEvents),
      waitForProjectionCaughtUp(harness.env.kafka, 'devices', TOPICS.deviceEvents),
    ]);
    const overview = (await call<{ data: Overview }>('GET', '/api/v1/overview')).body.data;
    expect(overview.outcomes_24h).toEqual({ delivered: 7, failed: 0, invalid: 2, cancelled: 0, opened: 1 });
    expect(overview.outcomes).toEqual(overview.outcomes_24h);
    expect(overview.window_hours).toBe(24);
    expect(overview.hours.length).toBeGreaterThan(0);
    // gone-1 and gone-2 were deactivated by their sends (Unregistered), android-off unregistered.
    expect(overview.devices).toEqual({ ios: { active: 2, inactive: 2 }, android: { active: 3, inactive: 1 }, web: { active: 0, inactive: 0 }, huawei: { active: 0, inactive: 0 } });
    expect((await call<{ data: { outcomes_24h: Record<string, number> } }>('GET', '/api/v1/overview', undefined, other.api_key)).body.data.outcomes_24h.delivered).toBe(0);

    // A test send is left out, as the list leaves it out, unless asked for; a longer window counts the same hours here.
    const test = await call<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: 'Draft', body: 'B', targets: [{ token: apnsToken('ios-1') }], test_send: true } });
    expect(test.status).toBe(201);
    expect((await sent(test.body.data.id)).counts.delivered).toBe(1);
    await waitForProjectionCaughtUp(harness.env.kafka, 'notification_reports', TOPICS.notificationEvents);
    expect((await call<{ data: Overview }>('GET', '/api/v1/overview')).body.data.outcomes.delivered).toBe(7);
    const withTests = (await call<{ data: Overview }>('GET', '/api/v1/overview?include_tests=true')).body.data;
    expect([withTests.outcomes.delivered, withTests.outcomes_24h.delivered]).toEqual([8, 8]);
    const week = (await call<{ data: Overview }>('GET', '/api/v1/overview?hours=168')).body.data;
    expect(week).toMatchObject({ window_hours: 168, outcomes: overview.outcomes, outcomes_24h: overview.outcomes_24h });
    // 167 hours before the current one, the day's 23 before it: 144 hours apart (one more if an hour began between the two reads).
    expect(Date.parse(overview.since) - Date.parse(week.since)).toBeGreaterThanOrEqual(144 * 3_600_000);
    expect(Date.parse(overview.since) - Date.parse(week.since)).toBeLessThanOrEqual(145 * 3_600_000);
    for (const hours of ['0', '721', 'ten', '1.5']) {
      expect(await call('GET', `/api/v1/overview?hours=${hours}`), hours).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('hours')] } });
    }
  });
});

describe('devices of a user, and the headers every answer carries', () => {
  it("finds a user's devices by external_id", async () => {
    const { body } = await call<{ data: Array<{ token: string }> }>('GET', '/api/v1/devices?external_id=user-7');
    expect(body.data.map((device) => device.token).sort()).toEqual(['android-2', 'android-3']);
    expect((await call<{ data: unknown[] }>('GET', '/api/v1/devices?external_id=user-7', undefined, other.api_key)).body.data).toEqual([]);
  });

  it('sends security headers on API answers and on the console', async () => {
    const api = await fetch(`${harness.baseUrl}/api/v1/topics`, { headers: { authorization: `Bearer ${project.api_key}` } });
    expect(api.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    const page = await fetch(`${harness.baseUrl}/console/notifications/anything`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<title>console</title>');
    const asset = await fetch(`${harness.baseUrl}/console/assets/app-1234.js`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${harness.baseUrl}/console/assets/missing.js`)).status).toBe(404);
  });
});
