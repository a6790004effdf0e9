import { describe, expect, it } from 'vitest';
import { platformLabel, platformParam } from './platforms.ts';

describe('platforms', () => {
  it('names every platform, with its provider when asked', () => {
    expect(['ios', 'android', 'web', 'huawei'].map((platform) => platformLabel(platform))).toEqual(['iOS', 'Android', 'Web', 'Huawei']);
    expect(platformLabel('huawei', true)).toBe('Huawei (Push Kit)');
    expect(platformLabel('web', true)).toBe('Web (Web Push)');
    expect(platformLabel('watchos')).toBe('watchos');
  });

  it('reads only known platforms from an address', () => {
    expect(platformParam('web')).toBe('web');
    expect(platformParam('Web')).toBeUndefined();
    expect(platformParam(undefined)).toBeUndefined();
  });
});
