import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateVapidKey } from '@herald/admin';
import { VAPID_REFRESH_MARGIN_S, VAPID_TOKEN_LIFETIME_S, VapidHeaderCache } from './vapid-cache.ts';

function parse(header: string) {
  const match = /^vapid t=([^,]+), k=(\S+)$/.exec(header)!;
  const [head, body, signature] = match[1]!.split('.') as [string, string, string];
  return { jwt: { head, body, signature }, claims: JSON.parse(Buffer.from(body, 'base64url').toString()) as { aud: string; exp: number; sub: string }, k: match[2]! };
}

describe('VapidHeaderCache', () => {
  const key = generateVapidKey();
  const subject = 'mailto:push@example.com';

  it('signs an ES256 JWT for the origin with exp within 24 h, verifiable with the public key it names', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const header = new VapidHeaderCache(() => now).header('https://push.example.net', subject, key);
    const { jwt, claims, k } = parse(header);
    expect(k).toBe(key.public_key);
    expect(claims).toEqual({ aud: 'https://push.example.net', sub: subject, exp: now / 1000 + VAPID_TOKEN_LIFETIME_S });
    expect(claims.exp - now / 1000).toBeLessThanOrEqual(24 * 3600);
    const point = Buffer.from(key.public_key, 'base64url');
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    const signed = verify('sha256', Buffer.from(`${jwt.head}.${jwt.body}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(jwt.signature, 'base64url'));
    expect(signed).toBe(true);
  });

  it('signs once per origin and key until shortly before expiry', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const cache = new VapidHeaderCache(() => now);
    const first = cache.header('https://a.example', subject, key);
    expect(cache.header('https://a.example', subject, key)).toBe(first);
    cache.header('https://b.example', subject, key);
    cache.header('https://a.example', subject, generateVapidKey());
    expect(cache.signed).toBe(3);
    now += (VAPID_TOKEN_LIFETIME_S - VAPID_REFRESH_MARGIN_S - 1) * 1000;
    expect(cache.header('https://a.example', subject, key)).toBe(first);
    now += 1000;
    expect(cache.header('https://a.example', subject, key)).not.toBe(first);
    expect(cache.signed).toBe(4);
  });
});
