import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInjectHarness, type InjectHarness } from '@herald/testing';
import { buildApp } from '../../../../build-app.ts';

/** The key's own project: its zone read and set (validated, canonical), never another project's; without a key, 401. */
let harness: InjectHarness;
beforeAll(async () => {
  harness = await startInjectHarness('project-route', (deps, logger) => buildApp(deps, logger));
});
afterAll(async () => {
  await harness?.close();
});

describe('project route', () => {
  it('reads UTC by default, sets an IANA zone in its canonical spelling, refuses others naming the field, and touches only its own project', async () => {
    const project = await harness.createProject('zone-a');
    const other = await harness.createProject('zone-b');
    expect(await harness.request('GET', '/api/v1/project', { key: project.api_key })).toEqual({ status: 200, body: { data: { id: project.id, name: 'zone-a', timezone: 'UTC' } } });

    expect(await harness.request('PATCH', '/api/v1/project', { key: project.api_key, body: { timezone: 'europe/paris' } })).toEqual({ status: 200, body: { data: { id: project.id, name: 'zone-a', timezone: 'Europe/Paris' } } });
    // Kept as given, not turned into the older alias Intl knows it by (Asia/Calcutta).
    expect((await harness.request('PATCH', '/api/v1/project', { key: project.api_key, body: { timezone: 'Asia/Kolkata' } })).body).toEqual({ data: { id: project.id, name: 'zone-a', timezone: 'Asia/Kolkata' } });
    expect((await harness.request('GET', '/api/v1/project', { key: project.api_key })).body).toEqual({ data: { id: project.id, name: 'zone-a', timezone: 'Asia/Kolkata' } });
    expect((await harness.request('GET', '/api/v1/project', { key: other.api_key })).body).toEqual({ data: { id: other.id, name: 'zone-b', timezone: 'UTC' } });

    for (const timezone of ['Mars/Olympus', '+02:00', 'Europe/Paris; drop']) {
      expect(await harness.request('PATCH', '/api/v1/project', { key: project.api_key, body: { timezone } }), timezone).toEqual({
        status: 400,
        body: { errors: [`timezone: ${JSON.stringify(timezone)} is not an IANA time zone name (e.g. Europe/Paris, UTC)`] },
      });
    }
    const refused = await harness.request('PATCH', '/api/v1/project', { key: project.api_key, body: { timezone: '' } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('timezone');
    expect((await harness.request('PATCH', '/api/v1/project', { key: project.api_key, body: { name: 'renamed' } })).status).toBe(400);
    expect((await harness.request('GET', '/api/v1/project', { key: project.api_key })).body).toMatchObject({ data: { name: 'zone-a', timezone: 'Asia/Kolkata' } });
    expect((await harness.request('GET', '/api/v1/project')).status).toBe(401);
  });
});
