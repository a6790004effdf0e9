import { describe, expect, it } from 'vitest';
import { apiKeyMatches, bearerToken, generateApiKey, hashApiKey, parseApiKey } from './api-key.ts';

describe('API keys', () => {
  it('generates keys that parse to their id and match their hash', () => {
    const { keyId, apiKey, hash } = generateApiKey();
    expect(parseApiKey(apiKey)).toEqual({ keyId });
    expect(hash).toBe(hashApiKey(apiKey));
    expect(apiKeyMatches(apiKey, hash)).toBe(true);
    expect(apiKeyMatches(`${apiKey}x`, hash)).toBe(false);
  });

  it('generates a different key each time', () => {
    expect(generateApiKey().apiKey).not.toBe(generateApiKey().apiKey);
  });

  it.each(['', 'hrld_', 'hrld_zz_abc', 'Bearer x', `hrld_${'a'.repeat(16)}_short`])('rejects malformed key %j', (key) => {
    expect(parseApiKey(key)).toBeUndefined();
  });

  it('reads bearer tokens and nothing else', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer   abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
