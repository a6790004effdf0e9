import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.ts';
import { indexOfToken } from './register.ts';
import { huaweiTokenFor, indexOfHuaweiToken, splitDevices } from './shares.ts';

describe('huawei devices of a campaign run', () => {
  it('takes --huawei-share as a fraction, 0 by default, and refuses web and huawei shares over 1 together', () => {
    expect(parseBenchArgs(['--devices', '1000']).huaweiShare).toBe(0);
    expect(parseBenchArgs(['--devices', '1000', '--huawei-share', '0.25']).huaweiShare).toBe(0.25);
    expect(parseBenchArgs(['--devices', '1000', '--web-share', '0.7', '--huawei-share', '0.3']).huaweiShare).toBe(0.3);
    expect(() => parseBenchArgs(['--huawei-share', '-0.1'])).toThrow(/huawei-share/);
    expect(() => parseBenchArgs(['--huawei-share', 'half'])).toThrow(/huawei-share/);
    expect(() => parseBenchArgs(['--web-share', '0.6', '--huawei-share', '0.5'])).toThrow(/--web-share and --huawei-share add up to more than 1/);
  });

  it('splits the devices so iOS, Android, web and huawei add up to --devices', () => {
    expect(splitDevices(3000, { iosShare: 0.5, webShare: 0.25, huaweiShare: 0.25 })).toEqual({ ios: 750, android: 750, web: 750, huawei: 750 });
    expect(splitDevices(1000, { iosShare: 0.5, webShare: 0, huaweiShare: 0 })).toEqual({ ios: 500, android: 500, web: 0, huawei: 0 });
    expect(splitDevices(10, { iosShare: 1, webShare: 0, huaweiShare: 1 })).toEqual({ ios: 0, android: 0, web: 0, huawei: 10 });
    for (const [devices, iosShare, webShare, huaweiShare] of [
      [7, 0.5, 0.35, 0.35],
      [1001, 0.3, 0.15, 0.45],
      [3, 0.5, 0.5, 0.5],
      [999_999, 0.77, 0.001, 0.999],
    ] as const) {
      const split = splitDevices(devices, { iosShare, webShare, huaweiShare });
      expect(split.ios + split.android + split.web + split.huawei).toBe(devices);
      expect(Object.values(split).every((count) => Number.isInteger(count) && count >= 0)).toBe(true);
    }
  });

  it('gives each huawei device a Push Kit token the API takes (32 to 512 characters) naming its index', () => {
    for (const index of [0, 7, 2_999, 10_000_000]) {
      const token = huaweiTokenFor(index);
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(token.length).toBeLessThanOrEqual(512);
      expect(indexOfHuaweiToken(token)).toBe(index);
    }
    expect(huaweiTokenFor(1)).not.toBe(huaweiTokenFor(2));
    expect(indexOfHuaweiToken('bench:123')).toBe(-1);
    expect(indexOfHuaweiToken(`${huaweiTokenFor(5)}x`)).toBe(-1);
    // Not mistaken for an iOS or Android token's index by the other fakes' decoder.
    expect(indexOfToken(huaweiTokenFor(5))).toBeNaN();
  });
});
