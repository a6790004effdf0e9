import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@herald/testing/seeded-random';
import type { IndexedDevice } from './index-rows.ts';
import { decodeRow, encodeRow, idKey } from './row-codec.ts';

const seed = Number(process.env.ROW_CODEC_SEED ?? Date.now() % 1_000_000);

/** Rows in every shape the codec must keep: canonical values it shortens, and near misses it must keep as they are. */
function randomRow(random: () => number): IndexedDevice {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const hex = (bytes: number) => Array.from({ length: bytes }, () => Math.floor(random() * 256).toString(16).padStart(2, '0')).join('');
  const uuidLike = () =>
    pick([
      randomUUID(),
      randomUUID(),
      randomUUID().toUpperCase(),
      `${randomUUID()}x`,
      randomUUID().replaceAll('-', ''),
      `${randomUUID().slice(0, 8)}a${randomUUID().slice(9)}`,
      randomUUID().replace(/[0-9a-f]/, 'g'),
      'not-a-uuid',
      '',
    ]);
  const token = pick([hex(32), hex(32).toUpperCase(), `${hex(32)}f`, `fcm:${hex(70)}_-`, hex(100), 'a']);
  const time = pick([new Date(Math.floor(random() * 4e12)).toISOString(), '2026-11-28T10:00:00Z', '2026-11-28T10:00:00.000+00:00', '+020000-01-01T00:00:00.000Z', 'yesterday']);
  const row: Record<string, unknown> = {
    _id: uuidLike(),
    project_id: uuidLike(),
    token,
    platform: pick(['ios', 'android']),
    status: pick(['active', 'inactive']),
    topics: Array.from({ length: Math.floor(random() * 4) }, uuidLike),
    metadata: Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, at) => [`k${at}`, pick(['pro', '', randomUUID()])])),
    registered_at: time,
    position: { partition: Math.floor(random() * 6), offset: Math.floor(random() * 2 ** 40) },
    since: Math.floor(random() * 2 ** 40),
  };
  if (random() < 0.5) row.external_id = pick(['user-1', randomUUID(), '']);
  if (random() < 0.3) row.external_id = null;
  if (random() < 0.5) row.timezone = pick(['Europe/Paris', 'UTC']);
  return row as unknown as IndexedDevice;
}

describe('the index row codec', () => {
  it('gives back every row exactly, absent fields absent (seed in the output)', () => {
    console.log(`row codec property test: seed ${seed}`);
    const random = seededRandom(seed);
    for (let n = 0; n < 5_000; n += 1) {
      const row = randomRow(random);
      const back = decodeRow(encodeRow(row));
      expect(back).toStrictEqual(row);
      expect(Object.keys(back).sort()).toEqual(Object.keys(row).sort());
    }
  });

  it('stores canonical uuids and APNs tokens in their short forms', () => {
    const row = {
      _id: randomUUID(),
      project_id: randomUUID(),
      token: 'ab'.repeat(32),
      platform: 'ios',
      status: 'active',
      topics: [randomUUID()],
      metadata: {},
      registered_at: new Date().toISOString(),
      position: { partition: 3, offset: 123_456 },
      since: 123_456,
    } as unknown as IndexedDevice;
    const asStrings = Buffer.byteLength(JSON.stringify(Object.values(row)));
    // 3 uuids at 18 bytes instead of 37, a token at 34 instead of 65.
    expect(encodeRow(row).length).toBeLessThan(asStrings - 3 * 19 - 31);
    expect(decodeRow(encodeRow(row))).toStrictEqual(row);
  });

  it('keys every (partition, device id) apart: canonical uuids as 16 bytes, any other id as its text', () => {
    const uuid = randomUUID();
    const ids = [uuid, uuid.toUpperCase(), uuid.replaceAll('-', ''), `${uuid} `, 'd1', '', 'é', 'x'.repeat(16), '\u0000'.repeat(16)];
    const seen = new Map<string, string>();
    for (const partition of [0, 1, 255, 256, 1023]) {
      for (const id of ids) {
        const key = idKey(partition, id).toString('hex');
        expect(seen.get(key), `${partition} ${id}`).toBeUndefined();
        seen.set(key, `${partition} ${id}`);
      }
    }
    expect(idKey(3, uuid)).toHaveLength(19);
  });
});
