import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateDeviceAuthSecret, identifierHash, identifierHashMatches, isDeviceAuthSecret } from './device-auth.ts';

describe('device-auth secret and identifier hash', () => {
  const secret = generateDeviceAuthSecret();

  it('generates distinct, recognisable secrets', () => {
    expect(isDeviceAuthSecret(secret)).toBe(true);
    expect(generateDeviceAuthSecret()).not.toBe(secret);
    expect(isDeviceAuthSecret('hdas_short')).toBe(false);
  });

  it('is the hex HMAC-SHA256 of the identifier under the secret as printed (what the README example computes)', () => {
    expect(identifierHash(secret, 'user-1')).toBe(createHmac('sha256', secret).update('user-1').digest('hex'));
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    expect(identifierHash('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('hashes non-ASCII identifiers as UTF-8', () => {
    expect(identifierHash(secret, 'åse@example.no')).toBe(createHmac('sha256', secret).update(Buffer.from('åse@example.no', 'utf8')).digest('hex'));
  });

  it('accepts the right hash in either case', () => {
    const hash = identifierHash(secret, 'user-1');
    expect(identifierHashMatches(secret, 'user-1', hash)).toBe(true);
    expect(identifierHashMatches(secret, 'user-1', hash.toUpperCase())).toBe(true);
  });

  it.each([
    ['another identifier’s hash', () => identifierHash(secret, 'user-2')],
    ['the hash under another secret', () => identifierHash(generateDeviceAuthSecret(), 'user-1')],
    ['a truncated hash', () => identifierHash(secret, 'user-1').slice(0, 62)],
    ['a hash with a trailing character', () => `${identifierHash(secret, 'user-1')}0`],
    ['non-hex text of the right length', () => 'z'.repeat(64)],
    ['an empty string', () => ''],
  ])('refuses %s', (_label, given) => {
    expect(identifierHashMatches(secret, 'user-1', given())).toBe(false);
  });
});
