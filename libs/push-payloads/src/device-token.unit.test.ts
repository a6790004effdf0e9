import { describe, expect, it } from 'vitest';
import { deviceTokenProblem, TOKEN_PLATFORM_OF } from './device-token.ts';

const hex = (bytes: number) => 'a1'.repeat(bytes);

describe('deviceTokenProblem', () => {
  it.each([
    ['32 bytes, lower case', hex(32)],
    ['32 bytes, upper case', hex(32).toUpperCase()],
    ['100 bytes (the longest allowed)', hex(100)],
  ])('accepts an APNs token of %s', (_name, token) => {
    expect(deviceTokenProblem('ios', token)).toBeUndefined();
  });

  it.each([
    ['a space', `${hex(31)} 0`],
    ['a tab', `${hex(31)}\t0`],
    ['a CR', `${hex(31)}\r0`],
    ['a LF', `${hex(31)}\n0`],
    ['a NUL', `${hex(31)}\u00000`],
    ['a DEL', `${hex(31)}\u007f0`],
    ['a slash', `${hex(31)}/0`],
    ['letters past f', `${hex(31)}zz`],
  ])('refuses an APNs token with %s', (_name, token) => {
    expect(deviceTokenProblem('ios', token)).toBe('token must be an APNs device token: hexadecimal digits only (0-9, a-f)');
  });

  it.each([
    ['too short', hex(31), 62],
    ['too long', hex(101), 202],
    ['odd', `${hex(32)}a`, 65],
  ])('refuses an APNs token that is %s', (_name, token, length) => {
    expect(deviceTokenProblem('ios', token)).toBe(`token must be an APNs device token: an even number of hex digits from 64 to 200 (it has ${length})`);
  });

  it('accepts FCM tokens of its alphabet', () => {
    expect(deviceTokenProblem('android', 'cXyZ-_09:APA91bHk_Qm-1')).toBeUndefined();
    expect(deviceTokenProblem('android', 'f'.repeat(1024))).toBeUndefined();
  });

  it.each([
    ['a space', 'abc def'],
    ['a LF', 'abc\ndef'],
    ['a dot', 'abc.def'],
    ['a slash', 'abc/def'],
  ])('refuses an FCM token with %s', (_name, token) => {
    expect(deviceTokenProblem('android', token)).toBe('token must be an FCM registration token: letters, digits, "-", "_" and ":" only');
  });

  it('checks huawei tokens as HMS push tokens, naming token', () => {
    expect(deviceTokenProblem('huawei', `IQAAAACy0kYb${'A'.repeat(100)}:APA91b-x_y.z`)).toBeUndefined();
    expect(deviceTokenProblem('huawei', 'short')).toMatch(/^token must be an HMS push token of 32 to 512 characters/);
    expect(deviceTokenProblem('huawei', `${'a'.repeat(40)}/slash`)).toMatch(/^token must be an HMS push token: letters/);
    expect(TOKEN_PLATFORM_OF.hms).toBe('huawei');
  });

  it('refuses an FCM token past the length bound', () => {
    expect(deviceTokenProblem('android', 'f'.repeat(1025))).toBe('token must be an FCM registration token of at most 1024 characters (it has 1025)');
  });
});
