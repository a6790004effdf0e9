import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deviceProof, deviceProofMatches, generateDeviceAuthSecret, isDeviceAuthSecret } from './device-auth.ts';

describe('device-auth secret and proofs', () => {
  const secret = generateDeviceAuthSecret();

  it('generates distinct, recognisable secrets', () => {
    expect(isDeviceAuthSecret(secret)).toBe(true);
    expect(generateDeviceAuthSecret()).not.toBe(secret);
    expect(isDeviceAuthSecret('hdas_short')).toBe(false);
  });

  it('is the hex HMAC-SHA256 of "<purpose>:<value>" under the secret as printed (what the example in docs/reference/device-endpoints.md computes)', () => {
    expect(deviceProof(secret, 'identifier', 'user-1')).toBe(createHmac('sha256', secret).update('identifier:user-1').digest('hex'));
    expect(deviceProof(secret, 'external_id', 'user-1')).toBe(createHmac('sha256', secret).update('external_id:user-1').digest('hex'));
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?" (here the purpose is part of the data).
    expect(createHmac('sha256', 'Jefe').update('what do ya want for nothing?').digest('hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('hashes non-ASCII values as UTF-8', () => {
    expect(deviceProof(secret, 'identifier', 'åse@example.no')).toBe(createHmac('sha256', secret).update(Buffer.from('identifier:åse@example.no', 'utf8')).digest('hex'));
  });

  it('accepts the right proof in either case', () => {
    const hash = deviceProof(secret, 'identifier', 'user-1');
    expect(deviceProofMatches(secret, 'identifier', 'user-1', hash)).toBe(true);
    expect(deviceProofMatches(secret, 'identifier', 'user-1', hash.toUpperCase())).toBe(true);
  });

  it.each([
    ['another value’s proof', () => deviceProof(secret, 'identifier', 'user-2')],
    ['the proof for another purpose (a metadata proof offered to link a user)', () => deviceProof(secret, 'external_id', 'user-1')],
    ['the plain HMAC of the value (no purpose)', () => createHmac('sha256', secret).update('user-1').digest('hex')],
    ['the proof under another secret', () => deviceProof(generateDeviceAuthSecret(), 'identifier', 'user-1')],
    ['a truncated proof', () => deviceProof(secret, 'identifier', 'user-1').slice(0, 62)],
    ['a proof with a trailing character', () => `${deviceProof(secret, 'identifier', 'user-1')}0`],
    ['non-hex text of the right length', () => 'z'.repeat(64)],
    ['an empty string', () => ''],
  ])('refuses %s', (_label, given) => {
    expect(deviceProofMatches(secret, 'identifier', 'user-1', given())).toBe(false);
  });
});
