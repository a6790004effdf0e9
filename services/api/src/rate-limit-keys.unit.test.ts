import { describe, expect, it } from 'vitest';
import { apiKeyFingerprint, isBearerRoute, isDeviceRoute, projectIdOf } from './rate-limit-keys.ts';

describe('rate limit keys', () => {
  it('tells bearer routes by their security scheme', () => {
    expect(isBearerRoute({ security: [{ bearerAuth: [] }] })).toBe(true);
    expect(isBearerRoute({ body: {} })).toBe(false);
    expect(isBearerRoute(undefined)).toBe(false);
    // An optional key (registration: proof for a token refresh) leaves the route device-facing.
    expect(isBearerRoute({ security: [{}, { bearerAuth: [] }] })).toBe(false);
    expect(isDeviceRoute('/api/v1/metadata')).toBe(true);
    expect(isDeviceRoute('/health')).toBe(false);
  });

  it('finds the project in the query, then the body, and ignores anything that is not a short string', () => {
    expect(projectIdOf({ query: { project_id: 'p1' }, body: { project_id: 'p2' } })).toBe('project:p1');
    expect(projectIdOf({ query: {}, body: { project_id: 'p2' } })).toBe('project:p2');
    expect(projectIdOf({ query: { project_id: ['a'] }, body: null })).toBeUndefined();
    expect(projectIdOf({ query: { project_id: 'x'.repeat(129) } })).toBeUndefined();
  });

  it('counts API keys by a hash that does not contain the key', () => {
    const fingerprint = apiKeyFingerprint('Bearer secret-key');
    expect(fingerprint).not.toContain('secret-key');
    expect(fingerprint).toBe(apiKeyFingerprint('Bearer secret-key'));
    expect(fingerprint).not.toBe(apiKeyFingerprint('Bearer other'));
  });
});
