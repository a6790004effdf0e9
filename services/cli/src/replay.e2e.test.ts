import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('replay');
  project = await harness.createProject('replay');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

/** Labels of even length register iOS devices (their tokens hex, as APNs tokens are), the rest Android. */
const register = (label: string) =>
  harness.request('POST', '/api/v1/devices', {
    body: { project_id: project.id, token: label.length % 2 === 0 ? apnsToken(label) : label, platform: label.length % 2 === 0 ? 'ios' : 'android', metadata: { n: label } },
  });
const count = async () => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key })).body?.pagination as { count: number }).count;

describe('herald replay', () => {
  it('rebuilds devices into a new version while the API serves, losing nothing', async () => {
    for (let batch = 0; batch < 4; batch += 1) {
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => register(`before-${batch * 50 + i}`)));
      expect(responses.every((response) => response.status === 201)).toBe(true);
    }
    await waitFor('200 devices projected', async () => (await count()) === 200);

    // Requests keep coming while the rebuild runs: reads and new registrations.
    const statuses: number[] = [];
    let registered = 200;
    let rebuilding = true;
    const load = (async () => {
      for (let round = 0; rebuilding && round < 2_000; round += 1) {
        const [list, created] = await Promise.all([harness.request('GET', '/api/v1/devices?limit=100', { key: project.api_key }), register(`during-${round}`)]);
        statuses.push(list.status, created.status);
        if (created.status === 201) registered += 1;
      }
    })();
    const output = await harness.herald('replay', 'devices').finally(() => {
      rebuilding = false;
    });
    await load;

    expect(output).toContain('rebuilding devices: v1 (devices_v1) → v2 (devices_v2)');
    expect(output).toContain('switched devices readers to v2');
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);

    // The projector follows the switch; every device, before and during, is in the new version.
    await waitFor(`${registered} devices in the rebuilt read model`, async () => (await count()) === registered, 30_000);
    const versions = await harness.env.driverDb.collection('read_model_versions').findOne({ _id: 'devices' as never });
    expect(versions).toMatchObject({ active: { version: 2, collection: 'devices_v2' }, retired: [{ version: 1 }] });
    // New registrations after the switch land in the new version too.
    expect((await register('after-switch')).status).toBe(201);
    await waitFor('the device registered after the switch', async () => (await count()) === registered + 1);
  });

  it('--dry-run changes nothing; --drop-old removes the versions readers left', async () => {
    const dry = await harness.herald('replay', 'devices', '--dry-run');
    expect(dry).toContain('would rebuild devices: v2 (devices_v2) → v3 (devices_v3)');
    const collections = async () => (await harness.env.driverDb.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((name) => /^devices_v\d+$/.test(name)).sort();
    expect(await collections()).toEqual(['devices_v1', 'devices_v2']);

    const output = await harness.herald('replay', 'devices', '--drop-old');
    expect(output).toContain('switched devices readers to v3');
    expect(output).toContain('dropped devices_v1, devices_v2');
    expect(await collections()).toEqual(['devices_v3']);
    const total = await count();
    expect(total).toBeGreaterThan(200);
  });

  it('lag lists every projector group with its lag per topic', async () => {
    const rows = JSON.parse(await harness.herald('lag', '--json')) as Array<{ group: string; topic: string; lag: number }>;
    const groups = rows.map((row) => `${row.group} ${row.topic}`);
    expect(groups).toEqual(expect.arrayContaining(['herald.projector.devices.v3 herald.device-events', 'herald.projector.topics.v1 herald.topic-events']));
    await waitFor('the devices projector to have no lag', async () => {
      const now = JSON.parse(await harness.herald('lag', '--json')) as Array<{ group: string; lag: number }>;
      return now.find((row) => row.group === 'herald.projector.devices.v3')?.lag === 0;
    });
    expect(await harness.herald('lag')).toMatch(/herald\.projector\.devices\.v3\s+herald\.device-events\s+0/);
  });

  it('refuses an unknown read model', async () => {
    await expect(harness.herald('replay', 'nope')).rejects.toThrow(/read model must be one of: devices, topics, notifications, delivery_ledger/);
  });
});
