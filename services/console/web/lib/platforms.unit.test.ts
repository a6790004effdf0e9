import { describe, expect, it } from 'vitest';
import { platformCountsText, platformLabel, platformParam } from './platforms.ts';

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

  it('counts an audience by platform: iOS and Android always, Web and Huawei when present', () => {
    expect(platformCountsText({ ios: 3, android: 1, web: 0, huawei: 0 })).toBe('iOS 3, Android 1');
    expect(platformCountsText({ ios: 0, android: 0 })).toBe('iOS 0, Android 0');
    expect(platformCountsText({ ios: 1200, android: 0, web: 2, huawei: 5 }, (count) => `#${count}`)).toBe('iOS #1200, Android #0, Web #2, Huawei #5');
  });
});
