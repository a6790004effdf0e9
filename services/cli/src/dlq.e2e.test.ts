import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS } from '@herald/events';
import { readLogToEnd } from '@herald/kafka';
import { startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('dlq');
  project = await harness.createProject('dlq');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

const DLQ = 'herald.device-events.dlq.herald.projector.devices.v1';
interface Row { ref: string; source: string; kind: string; redrives: number; error: string }
const records = async () => JSON.parse(await harness.herald('dlq', 'list', '--records', '--json', '--topic', DLQ)) as Row[];
const devices = () => harness.env.driverDb.collection<{ _id: string; token?: string; position?: { partition: number; offset: number } }>('devices_v1');

describe('herald dlq', () => {
  it('lists, shows and redrives dead letters once, even when redriven twice at once', async () => {
    // A schema-invalid event (a valid envelope, a DeviceRegistered without its token): no fix makes it valid.
    const invalid = { ...createEvent('DeviceRegistered', { device_id: 'poison-device', token: 'x', platform: 'ios' }, { project_id: project.id }) };
    const { token: _dropped, ...withoutToken } = invalid.data;
    await harness.env.producer.publishRaw([{ topic: harness.env.kafka.topic(TOPICS.deviceEvents), messages: [{ key: 'poison-device', value: JSON.stringify({ ...invalid, data: withoutToken }), headers: { type: 'DeviceRegistered' } }] }]);
    // A valid registration whose handler fails for good: an operator's hand edit left its document without a position.
    const deviceId = deviceIdFor(project.id, 'hand-edited-token');
    await devices().insertOne({ _id: deviceId, token: 'edited by hand' });
    await harness.env.producer.publish([createEvent('DeviceRegistered', { device_id: deviceId, token: 'hand-edited-token', platform: 'android' }, { project_id: project.id })]);

    const letters = await waitFor('both records dead-lettered by the devices projector', async () => {
      const rows = await records();
      return rows.length === 2 && rows;
    }, 60_000);
    const handlerError = letters.find((row) => row.kind === 'handler-error')!;
    const schemaInvalid = letters.find((row) => row.kind === 'schema-invalid')!;
    expect(handlerError.error).toMatch(/^TypeError: Cannot read properties of undefined/);
    expect(schemaInvalid.error).toMatch(/^EVENT_DECODE_FAILED: invalid DeviceRegistered v2: .*token/);

    const counts = JSON.parse(await harness.herald('dlq', 'list', '--json')) as Array<{ topic: string; group: string; kind: string; count: number }>;
    expect(counts).toEqual(expect.arrayContaining([
      expect.objectContaining({ topic: DLQ, group: 'herald.projector.devices.v1', kind: 'handler-error', count: 1 }),
      expect.objectContaining({ topic: DLQ, group: 'herald.projector.devices.v1', kind: 'schema-invalid', count: 1 }),
    ]));
    expect(await harness.herald('dlq', 'list', '--topic', DLQ)).toMatch(/herald\.projector\.devices\.v1\s+schema-invalid\s+1\s/);
    await waitFor('the projector to export the depth of its dead-letter topic', async () => {
      const text = await (await fetch(harness.metricsUrls.projector!)).text();
      return text.includes(`herald_dlq_records{topic="${DLQ}",service="projector"} 2`);
    });

    const shown = await harness.herald('dlq', 'show', handlerError.ref);
    expect(shown).toContain(`source        ${handlerError.source}`);
    expect(shown).toContain('group         herald.projector.devices.v1');
    expect(shown).toContain(`key           "${deviceId}"`);
    expect(shown).toContain('value         a Herald event: DeviceRegistered v2');
    expect(shown).toMatch(/error chain\n {2}1\. TypeError: Cannot read properties of undefined \(reading 'partition'\)/);
    expect(await harness.herald('dlq', 'show', schemaInvalid.ref)).toMatch(/value {9}JSON, not a valid Herald event \(invalid DeviceRegistered v2: .*token/);
    await expect(harness.herald('dlq', 'show', 'herald.device-events:0:1')).rejects.toThrow(/ref must be <dlq topic>:<partition>:<offset>/);
    await expect(harness.herald('dlq', 'show', `${DLQ}:0:999`)).rejects.toThrow(/no dead letter at/);

    const dry = await harness.herald('dlq', 'redrive', '--dry-run', '--topic', DLQ, '--error', 'TypeError');
    expect(dry).toContain('would redrive 1 dead letter (0 matching already redriven)');
    expect(dry).toContain(`${handlerError.ref} → herald.device-events:`);

    // The fix: the broken document goes. Then two redrives at once, and a third after them.
    await devices().deleteOne({ _id: deviceId });
    const runs = await Promise.allSettled([1, 2].map(() => harness.herald('dlq', 'redrive', '--topic', DLQ, '--error', 'TypeError')));
    expect(runs.some((run) => run.status === 'fulfilled')).toBe(true);
    for (const run of runs) if (run.status === 'rejected') expect(String(run.reason)).toMatch(/the redrive was not committed/);
    expect(await harness.herald('dlq', 'redrive', '--topic', DLQ, '--error', 'TypeError')).toContain('redrove 0 dead letters (1 matching already redriven)');

    const copies = (await readLogToEnd(harness.env.kafka, [TOPICS.deviceEvents])).filter((record) => record.headers['dlq.redrive.id'] === handlerError.ref);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.headers).toMatchObject({ 'dlq.redrive.group': harness.env.kafka.group('herald.projector.devices.v1'), 'dlq.redrive_count': '1', type: 'DeviceRegistered' });
    expect(copies[0]!.event).toBeUndefined();
    const device = await waitFor('the redriven registration projected', async () => (await devices().findOne({ _id: deviceId })) ?? undefined, 30_000);
    expect(device).toMatchObject({ token: 'hand-edited-token', position: { partition: copies[0]!.partition, offset: copies[0]!.offset } });

    // The schema-invalid one fails again and comes back with its history.
    expect(await harness.herald('dlq', 'redrive', '--error', 'invalid DeviceRegistered')).toContain('redrove 1 dead letter (0 matching already redriven)');
    const again = await waitFor('the redriven invalid record dead-lettered again', async () => (await records()).find((row) => row.redrives === 1));
    expect(again.kind).toBe('schema-invalid');
    const history = await harness.herald('dlq', 'show', again.ref);
    expect(history).toContain(`redriven      1 time before this failure (last from ${schemaInvalid.ref})`);
    expect(history).toContain(`herald.projector.devices.v1 at ${schemaInvalid.source}: EventDecodeError [EVENT_DECODE_FAILED]: invalid DeviceRegistered v2`);
  });
});
