import { describe, expect, it } from 'vitest';
import { lengthHint, lockScreens, platformsReached, shown } from './lock-screen.ts';

describe('lock-screen previews', () => {
  it('shows short text whole, and cuts long text at a word with an ellipsis', () => {
    expect(shown('Spring sale', 50)).toEqual({ text: 'Spring sale', length: 11, limit: 50, cut: false });
    const cut = shown('Everything in the store is twenty percent off today only', 40);
    expect(cut.cut).toBe(true);
    expect(cut.text).toBe('Everything in the store is twenty…');
    expect(Array.from(cut.text).length).toBeLessThanOrEqual(40);
  });

  it('cuts a word without spaces mid-word, and counts characters as people do (emoji, accents)', () => {
    expect(shown('x'.repeat(60), 50).text).toBe(`${'x'.repeat(49)}…`);
    expect(shown('Été 🎉', 50).length).toBe(5);
    expect(shown('🎉'.repeat(51), 50).text).toBe(`${'🎉'.repeat(49)}…`);
  });

  it('per platform: Android has a collapsed line; the hints name where each field is cut', () => {
    const title = 'A title that is longer than fifty characters on iOS!!';
    const screens = lockScreens(title, 'Short body', ['ios', 'android']);
    expect(screens.map((screen) => [screen.platform, screen.title.cut])).toEqual([
      ['ios', true],
      ['android', false],
    ]);
    expect(screens[1]!.collapsed?.cut).toBe(false);
    expect(lengthHint(screens, 'title')).toBe(`${Array.from(title).length} characters: cut on iOS (50)`);
    expect(lengthHint(screens, 'body')).toBe('10 characters: shown whole everywhere');
    expect(lengthHint(lockScreens('', 'b'.repeat(300), ['ios', 'android', 'web']), 'body')).toBe('300 characters: cut on iOS (178), Android (240), and Web (Chrome) (120)');
  });

  it('Huawei (EMUI) cuts a little shorter than Android, with its own collapsed line', () => {
    const body = 'b'.repeat(230);
    const [android, huawei] = lockScreens('t'.repeat(60), body, ['android', 'huawei']);
    expect(android!.title.cut).toBe(false);
    expect(huawei!.title.cut).toBe(true);
    expect([android!.body.cut, huawei!.body.cut]).toEqual([false, true]);
    expect(huawei!.collapsed?.cut).toBe(true);
    expect(huawei!.label).toBe('Huawei (EMUI)');
  });

  it('previews the platforms the audience has devices on, iOS and Android until it is counted', () => {
    expect(platformsReached(undefined)).toEqual(['ios', 'android']);
    expect(platformsReached({ ios: 0, android: 0, web: 0, huawei: 0 })).toEqual(['ios', 'android']);
    expect(platformsReached({ ios: 3, android: 0, web: 2, huawei: 1 })).toEqual(['ios', 'web', 'huawei']);
    expect(platformsReached({ ios: 0, android: 1, huawei: 4, watchos: 9 })).toEqual(['android', 'huawei']);
  });
});
