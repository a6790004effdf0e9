import { describe, expect, it } from 'vitest';
import { BATCH_BYTE_BUDGET, cutBatches, encodedDeviceBytes } from './batcher.ts';

const row = (n: number, platform: 'ios' | 'android' | 'web' | 'huawei', token = `tok${n}`) => ({ device_id: `d${String(n).padStart(5, '0')}`, token, platform });
const limits = { maxDevices: 2, maxDeviceBytes: 1_000_000 };

describe('cutBatches', () => {
  it('cuts batches per provider in reading order, numbered from the start', () => {
    const rows = [row(1, 'ios'), row(2, 'android'), row(3, 'ios'), row(4, 'ios'), row(5, 'android')];
    const { batches, next } = cutBatches(rows, { apns: 4, fcm: 1 }, limits);
    expect(batches.map((b) => [b.provider, b.sequence, b.devices.map((d) => d.device_id)])).toEqual([
      ['apns', 4, ['d00001', 'd00003']],
      ['apns', 5, ['d00004']],
      ['fcm', 1, ['d00002', 'd00005']],
    ]);
    expect(next).toEqual({ apns: 6, fcm: 2 });
  });

  it('puts web devices in webpush batches, numbered from 0 when a task written before the Web Push lane has no webpush count', () => {
    const { batches, next } = cutBatches([row(1, 'web'), row(2, 'ios'), row(3, 'web')], { apns: 0, fcm: 0 }, limits);
    expect(batches.map((b) => [b.provider, b.sequence, b.devices.map((d) => d.device_id)])).toEqual([
      ['apns', 0, ['d00002']],
      ['webpush', 0, ['d00001', 'd00003']],
    ]);
    expect(next).toEqual({ apns: 1, fcm: 0, webpush: 1 });
    expect(cutBatches([row(4, 'web')], next, limits).batches.map((b) => [b.provider, b.sequence])).toEqual([['webpush', 1]]);
  });

  it('puts huawei devices in hms batches of their own, numbered from 0 when a task has no hms count yet', () => {
    const { batches, next } = cutBatches([row(1, 'huawei'), row(2, 'android'), row(3, 'huawei'), row(4, 'huawei')], { apns: 0, fcm: 0, webpush: 2 }, limits);
    expect(batches.map((b) => [b.provider, b.sequence, b.devices.map((d) => d.device_id)])).toEqual([
      ['hms', 0, ['d00001', 'd00003']],
      ['fcm', 0, ['d00002']],
      ['hms', 1, ['d00004']],
    ]);
    expect(next).toEqual({ apns: 0, fcm: 1, webpush: 2, hms: 2 });
  });

  it('makes no batch for no rows', () => {
    expect(cutBatches([], { apns: 0, fcm: 0 }, limits)).toEqual({ batches: [], next: { apns: 0, fcm: 0 } });
  });

  it('cuts before the device that would pass the byte budget, so 4 KB tokens never make an oversized batch', () => {
    const token = 'a'.repeat(4_096);
    const rows = Array.from({ length: 1_200 }, (_, n) => row(n, 'ios', `${token}${n}`));
    const maxDeviceBytes = BATCH_BYTE_BUDGET - 1_000;
    const { batches } = cutBatches(rows, { apns: 0, fcm: 0 }, { maxDevices: 500, maxDeviceBytes });
    expect(batches.flatMap((b) => b.devices.map((d) => d.device_id))).toEqual(rows.map((r) => r.device_id));
    for (const batch of batches) expect(Buffer.byteLength(JSON.stringify(batch.devices))).toBeLessThanOrEqual(maxDeviceBytes);
    // Full batches are as full as the budget allows.
    const perBatch = Math.floor((maxDeviceBytes - 2) / encodedDeviceBytes({ device_id: 'd00000', token: `${token}0000` }));
    expect(batches[0]!.devices.length).toBeGreaterThanOrEqual(perBatch - 1);
    expect(batches.length).toBe(Math.ceil(1_200 / batches[0]!.devices.length));
  });

  it('counts the encoded size exactly', () => {
    const devices = [{ device_id: 'a', token: 'b"c' }, { device_id: 'é', token: 'x' }];
    expect(devices.reduce((sum, d) => sum + encodedDeviceBytes(d), 1)).toBe(Buffer.byteLength(JSON.stringify(devices)));
  });
});
