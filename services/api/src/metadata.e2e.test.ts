import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

let harness: ApiHarness;
let project: { id: string; api_key: string };
type DeviceRow = { id: string; token: string; metadata: Record<string, string> };

beforeAll(async () => {
  harness = await startApiHarness('metadata');
  project = await harness.createProject('metadata');
  const devices = [
    { token: apnsToken('phone-token'), identifiers: { user_id: 'user-1' }, metadata: { plan: 'free', city: 'Oslo' } },
    { token: apnsToken('tablet-token'), identifiers: { user_id: 'user-1', email: 'a@example.com' }, metadata: { plan: 'free' } },
    { token: apnsToken('other-token'), identifiers: { user_id: 'user-2' }, metadata: { plan: 'free' } },
  ];
  for (const device of devices) await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', ...device } });
  await waitFor('three devices projected', async () => ((await list()).length === 3 ? true : undefined));
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

async function list(): Promise<DeviceRow[]> {
  return (await harness.request('GET', '/api/v1/devices', { key: project.api_key })).body?.data as DeviceRow[];
}
const patch = (identifier: string, body: unknown, projectId = project.id) =>
  harness.request('PATCH', `/api/v1/metadata?project_id=${encodeURIComponent(projectId)}&identifier=${encodeURIComponent(identifier)}`, { body });

describe('PATCH /api/v1/metadata', () => {
  it('merges into every device an identifier value matches: sets keys, removes null ones', async () => {
    const response = await patch('user-1', { metadata: { plan: 'pro', city: null, lang: 'nb' } });
    // The answer names how many devices changed, and nothing about them.
    expect(response).toEqual({ status: 200, body: { data: { updated: 2 } } });
    await waitFor('the merge projected', async () => {
      const rows = await list();
      return rows.filter((row) => row.metadata.plan === 'pro').length === 2 ? true : undefined;
    });
    const rows = await list();
    expect(rows.find((row) => row.token === apnsToken('other-token'))?.metadata).toEqual({ plan: 'free' });
    expect(rows.find((row) => row.token === apnsToken('phone-token'))?.metadata).toEqual({ plan: 'pro', lang: 'nb' });
  });

  it('matches by device id and by token', async () => {
    const other = (await list()).find((row) => row.token === apnsToken('other-token'))!;
    expect((await patch(other.id, { metadata: { vip: 'yes' } })).body).toEqual({ data: { updated: 1 } });
    expect((await patch(apnsToken('tablet-token'), { metadata: { device: 'tablet' } })).body).toEqual({ data: { updated: 1 } });
    await waitFor('both updates projected', async () => {
      const rows = await list();
      return rows.find((row) => row.id === other.id)?.metadata.vip === 'yes' && rows.find((row) => row.token === apnsToken('tablet-token'))?.metadata.device === 'tablet';
    });
  });

  it.each([
    ['no metadata and no locale', {}, 'body must not be empty'],
    ['a number value', { metadata: { plan: 3 } }, 'metadata.plan does not match any allowed form'],
    ['metadata that is not an object', { metadata: 'plan' }, 'metadata must be an object'],
  ])('400 for %s', async (_label, body, message) => {
    expect(await patch('user-1', body)).toEqual({ status: 400, body: { errors: [message] } });
  });

  it('400 for a missing parameter, 404 for an unknown project or device', async () => {
    expect(await harness.request('PATCH', `/api/v1/metadata?project_id=${project.id}`, { body: { metadata: {} } })).toEqual({
      status: 400,
      body: { errors: ['identifier is required'] },
    });
    expect((await patch('user-1', { metadata: { a: 'b' } }, 'no-such-project')).status).toBe(404);
    expect(await patch('nobody', { metadata: { a: 'b' } })).toEqual({ status: 404, body: { errors: [`identifier nobody matches no device in project ${project.id}`] } });
  });

  it('never touches another project’s devices', async () => {
    const other = await harness.createProject('metadata-other');
    expect((await patch('user-1', { metadata: { a: 'b' } }, other.id)).status).toBe(404);
  });
});
