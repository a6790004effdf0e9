import { describe, expect, it } from 'vitest';
import { addressKey, isBearerRoute, isDeviceRoute, projectIdOf } from './rate-limit-keys.ts';

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

  it('counts IPv4 addresses one by one and IPv6 addresses by their /64, however they are written', () => {
    expect(addressKey('203.0.113.7')).toBe('addr:203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('addr:203.0.113.7');
    expect(addressKey('2001:db8:1:2::1')).toBe('addr:2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(addressKey('2001:0db8:0001:0002::abcd'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('addr:0:0:0:0::/64');
    expect(addressKey('not-an-address')).toBe('addr:not-an-address');
  });
});
