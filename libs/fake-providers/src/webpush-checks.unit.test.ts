import { createECDH, createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkVapid } from './webpush-checks.ts';

const ecdh = createECDH('prime256v1');
ecdh.generateKeys();
const publicKey = ecdh.getPublicKey('base64url');
const point = ecdh.getPublicKey();
const privateKey = createPrivateKey({
  key: { kty: 'EC', crv: 'P-256', d: ecdh.getPrivateKey().toString('base64url'), x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
  format: 'jwk',
});
const NOW = 1_767_225_600;
const origin = 'https://127.0.0.1:4000';

function header(claims: Record<string, unknown>, k = publicKey): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ typ: 'JWT', alg: 'ES256' })}.${part(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `vapid t=${input}.${signature}, k=${k}`;
}

const good = { aud: origin, exp: NOW + 3600, sub: 'mailto:push@example.com' };

describe('checkVapid', () => {
  it('accepts a JWT signed by k for this origin, expiring within 24 h, with a subject', () => {
    expect(checkVapid(header(good), { origin, nowS: NOW })).toEqual({ ok: true, key: publicKey, subject: 'mailto:push@example.com' });
    expect(checkVapid(header(good), { origin, applicationServerKey: publicKey, nowS: NOW }).ok).toBe(true);
  });

  it('refuses what a push service refuses', () => {
    const other = createECDH('prime256v1');
    other.generateKeys();
    const cases: Array<[string | undefined, string, number]> = [
      [undefined, 'MissingVapid', 401],
      [`WebPush ${header(good).slice(8)}`, 'MissingVapid', 401],
      [header(good, other.getPublicKey('base64url')), 'BadVapidSignature', 401],
      [header({ ...good, aud: 'https://elsewhere.example' }), 'BadVapidAudience', 401],
      [header({ ...good, exp: NOW - 1 }), 'BadVapidExpiry', 401],
      [header({ ...good, exp: NOW + 24 * 3600 + 1 }), 'BadVapidExpiry', 401],
      [header({ aud: origin, exp: NOW + 60 }), 'BadVapidSubject', 401],
      [header({ ...good, sub: 'push@example.com' }), 'BadVapidSubject', 401],
    ];
    for (const [authorization, reason, status] of cases) {
      expect({ authorization, verdict: checkVapid(authorization, { origin, nowS: NOW }) }).toEqual({ authorization, verdict: { ok: false, status, reason } });
    }
    expect(checkVapid(header(good), { origin, applicationServerKey: other.getPublicKey('base64url'), nowS: NOW })).toEqual({ ok: false, status: 403, reason: 'VapidKeyMismatch' });
  });
});
