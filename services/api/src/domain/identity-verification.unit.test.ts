import { describe, expect, it } from 'vitest';
import { deviceProof, generateDeviceAuthSecret } from '@herald/admin';

const identifierHash = (key: string, value: string) => deviceProof(key, 'identifier', value);
const externalIdHash = (key: string, value: string) => deviceProof(key, 'external_id', value);
import { checkIdentifierHash, mayClaimExternalId } from './identity-verification.ts';

const secret = generateDeviceAuthSecret();
const on = { enabled: true, secret } as const;

describe('checkIdentifierHash', () => {
  it('lets any write through while verification is off, with or without a hash', () => {
    expect(() => checkIdentifierHash({ enabled: false }, 'user-1', undefined)).not.toThrow();
    expect(() => checkIdentifierHash({ enabled: false }, 'user-1', 'f'.repeat(64))).not.toThrow();
  });

  it('lets a write with the identifier’s hash through while it is on', () => {
    expect(() => checkIdentifierHash(on, 'user-1', identifierHash(secret, 'user-1'))).not.toThrow();
  });

  it.each([
    ['no hash', undefined, 'identifier_hash is required: identity verification is on for this project'],
    ['the hash of another identifier', identifierHash(secret, 'user-2'), 'identifier_hash is not the HMAC-SHA256 of "identifier:" + identifier'],
    ['a hash under another secret', identifierHash(generateDeviceAuthSecret(), 'user-1'), 'identifier_hash is not the HMAC-SHA256 of "identifier:" + identifier'],
    ['the external_id proof of the same value', externalIdHash(secret, 'user-1'), 'identifier_hash is not the HMAC-SHA256 of "identifier:" + identifier'],
  ])('refuses %s with 401 naming identifier_hash', (_label, hash, message) => {
    let thrown: unknown;
    try {
      checkIdentifierHash(on, 'user-1', hash);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'UNAUTHORIZED', status: 401, message: expect.stringContaining(message) });
  });
});

describe('mayClaimExternalId', () => {
  const claim = { externalId: 'u-1', externalIdHash: undefined, current: undefined, bearerProjectId: undefined, projectId: 'p', verification: { enabled: false } as const };
  it("refuses a stranger: no key, no proof, not the device's own", () => {
    expect(mayClaimExternalId(claim)).toBe(false);
    expect(mayClaimExternalId({ ...claim, bearerProjectId: 'another-project' })).toBe(false);
    expect(mayClaimExternalId({ ...claim, current: 'u-2' })).toBe(false);
    // A hash means nothing while verification is off: there is no secret to check it with.
    expect(mayClaimExternalId({ ...claim, externalIdHash: externalIdHash(secret, 'u-1') })).toBe(false);
    expect(mayClaimExternalId({ ...claim, verification: on, externalIdHash: externalIdHash(secret, 'u-2') })).toBe(false);
    // Domain separation: the metadata proof for the same value is no proof of the user.
    expect(mayClaimExternalId({ ...claim, verification: on, externalIdHash: identifierHash(secret, 'u-1') })).toBe(false);
  });

  it("allows the project's key, a verified hash, or the external id the device already has", () => {
    expect(mayClaimExternalId({ ...claim, bearerProjectId: 'p' })).toBe(true);
    expect(mayClaimExternalId({ ...claim, verification: on, externalIdHash: externalIdHash(secret, 'u-1') })).toBe(true);
    expect(mayClaimExternalId({ ...claim, current: 'u-1' })).toBe(true);
  });
});
