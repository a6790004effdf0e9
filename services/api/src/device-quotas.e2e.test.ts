import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * What strangers can make a project store (issue 17, item 5): a project holds
 * at most its device quota (PROJECT_DEVICE_QUOTA, or its own set with the
 * CLI), and a device at most DEVICE_MAX_BYTES of registration data, whether
 * a registration or a metadata PATCH brings it; both refused with 400 naming
 * the limit. Low limits of this file's own API process; anonymous devices
 * may fill the whole quota here (their share is device-facing-limits.e2e.test.ts's).
 */
const QUOTA = 3;
const MAX_BYTES = 2_048;
let harness: ApiHarness;

beforeAll(async () => {
  harness = await startApiHarness('device-quotas', { apiEnv: { PROJECT_DEVICE_QUOTA: String(QUOTA), PROJECT_ANONYMOUS_DEVICE_PERCENT: '100', DEVICE_MAX_BYTES: String(MAX_BYTES) } });
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

const register = (projectId: string, body: Record<string, unknown>) => harness.request('POST', '/api/v1/devices', { body: { project_id: projectId, platform: 'android', ...body } });

describe('device quota', () => {
  it('refuses a new device past the quota, naming it; known devices still re-register; the CLI sets a project its own', async () => {
    const project = await harness.createProject('quota');
    for (let i = 0; i < QUOTA; i += 1) expect((await register(project.id, { token: `phone-${i}` })).status).toBe(201);
    const refused = await register(project.id, { token: 'one-too-many' });
    expect(refused).toEqual({ status: 400, body: { errors: [`project_id ${project.id} holds its quota of ${QUOTA} devices (PROJECT_DEVICE_QUOTA, or herald projects device-quota): no new device can register`] } });
    // Counted and listed: a re-registration and a DELETE read the documents, which the projector writes after the counters.
    await waitFor('three devices projected', async () => {
      const { body } = await harness.request('GET', '/api/v1/devices', { key: project.api_key });
      return (body?.pagination as { count: number }).count === QUOTA && (body?.data as unknown[]).length === QUOTA;
    });
    expect((await register(project.id, { token: 'phone-0', metadata: { again: 'yes' } })).status).toBe(201);
    // Deleted devices stop counting: device-facing-limits.e2e.test.ts.

    expect(JSON.parse(await harness.herald('projects', 'device-quota', project.id, '5', '--json'))).toEqual({ project_id: project.id, device_quota: 5 });
    expect((await register(project.id, { token: 'one-too-many' })).status).toBe(201);
    const other = await harness.createProject('quota-other');
    expect((await register(other.id, { token: 'phone-0' })).status).toBe(201);
  });
});

describe('device byte bound', () => {
  it('refuses a registration whose device would hold more than DEVICE_MAX_BYTES, and a PATCH that would grow it past them', async () => {
    const project = await harness.createProject('bytes');
    const big = { metadata: Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`k${i}`, 'v'.repeat(1000)])) };
    const refused = await register(project.id, { token: 'heavy', ...big });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ errors: [expect.stringMatching(new RegExp(`^the device would hold \\d+ bytes of token, identifiers, metadata, topics, external_id and timezone \\(as JSON\\); a device holds at most ${MAX_BYTES} \\(DEVICE_MAX_BYTES\\)$`))] });

    const fits = await register(project.id, { token: 'light', metadata: { k0: 'v'.repeat(1000) } });
    expect(fits.status).toBe(201);
    expect(JSON.stringify(fits.body).length).toBeLessThan(MAX_BYTES + 1_000);
    await waitFor('the device projected', async () => ((await harness.request('GET', '/api/v1/devices', { key: project.api_key })).body?.data as unknown[]).length === 1);
    const patch = await harness.request('PATCH', `/api/v1/metadata?project_id=${project.id}&identifier=light`, { body: { metadata: { k1: 'v'.repeat(1000) } } });
    expect(patch).toEqual({ status: 400, body: { errors: [expect.stringMatching(new RegExp(`^metadata would make a device hold \\d+ bytes; a device holds at most ${MAX_BYTES} \\(DEVICE_MAX_BYTES\\)$`))] } });
    expect((await harness.request('PATCH', `/api/v1/metadata?project_id=${project.id}&identifier=light`, { body: { metadata: { k1: 'small' } } })).status).toBe(200);
  });
});
