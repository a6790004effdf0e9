import { describe, expect, it } from 'vitest';
import { checkApnsRequest, type ApnsRule } from './apns-checks.ts';
import { createRuleBook } from './rules.ts';
import { createTestApnsKey } from './test-keys.ts';
import { signTestJwt } from './test-jwt.ts';

const NOW = Date.parse('2025-01-01T00:00:00Z');
const key = createTestApnsKey();

function providerToken(options: { kid?: string; iss?: string; iat?: number; signer?: string } = {}): string {
  const header = { alg: 'ES256', kid: options.kid ?? key.keyId };
  return signTestJwt(header, { iss: options.iss ?? key.teamId, iat: options.iat ?? NOW / 1000 }, options.signer ?? key.keyPem);
}

function check(overrides: { path?: string; headers?: Record<string, string | undefined>; body?: Buffer; rules?: ApnsRule[]; topics?: readonly string[] } = {}) {
  const headers = Object.fromEntries(
    Object.entries({ authorization: `bearer ${providerToken()}`, 'apns-topic': 'com.example.app', 'apns-push-type': 'alert', ...overrides.headers }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return checkApnsRequest(
    { method: 'POST', path: overrides.path ?? '/3/device/abc123', headers, body: overrides.body ?? Buffer.from('{"aps":{"alert":"hi"}}') },
    {
      keys: new Map([[key.keyId, key]]),
      topics: overrides.topics === undefined ? undefined : new Set(overrides.topics),
      rules: createRuleBook(overrides.rules ?? []),
      now: NOW,
    },
  );
}

describe('checkApnsRequest', () => {
  it('accepts a well-formed request signed by a registered key', () => {
    expect(check()).toMatchObject({ kind: 'accepted', token: 'abc123' });
  });

  it.each([
    ['no authorization', { headers: { authorization: undefined } }, 403, 'MissingProviderToken'],
    ['garbage token', { headers: { authorization: 'bearer not-a-jwt' } }, 403, 'InvalidProviderToken'],
    ['unknown key id', { headers: { authorization: `bearer ${providerToken({ kid: 'NOPE000000' })}` } }, 403, 'InvalidProviderToken'],
    ['another team', { headers: { authorization: `bearer ${providerToken({ iss: 'OTHERTEAM0' })}` } }, 403, 'InvalidProviderToken'],
    ['signed by another key', { headers: { authorization: `bearer ${providerToken({ signer: createTestApnsKey().keyPem })}` } }, 403, 'InvalidProviderToken'],
    ['older than an hour', { headers: { authorization: `bearer ${providerToken({ iat: NOW / 1000 - 3601 })}` } }, 403, 'ExpiredProviderToken'],
    ['no topic', { headers: { 'apns-topic': undefined } }, 400, 'MissingTopic'],
    ['topic not allowed', { topics: ['com.other.app'] }, 400, 'TopicDisallowed'],
    ['no push type', { headers: { 'apns-push-type': undefined } }, 400, 'InvalidPushType'],
    ['bad priority', { headers: { 'apns-priority': '7' } }, 400, 'BadPriority'],
    ['collapse id over 64 bytes', { headers: { 'apns-collapse-id': 'x'.repeat(65) } }, 400, 'BadCollapseId'],
    ['bad path', { path: '/3/devices/abc' }, 404, 'BadPath'],
    ['empty token', { path: '/3/device/' }, 400, 'MissingDeviceToken'],
    ['empty payload', { body: Buffer.alloc(0) }, 400, 'PayloadEmpty'],
    ['payload over 4096 bytes', { body: Buffer.alloc(4097, 'x') }, 413, 'PayloadTooLarge'],
  ] as const)('refuses %s', (_name, overrides, status, reason) => {
    expect(check(overrides)).toMatchObject({ kind: 'rejected', status, reason });
  });

  it('allows 4096 bytes, and 5120 for VoIP', () => {
    expect(check({ body: Buffer.alloc(4096, 'x') }).kind).toBe('accepted');
    expect(check({ body: Buffer.alloc(5120, 'x'), headers: { 'apns-push-type': 'voip' } }).kind).toBe('accepted');
  });

  it('answers token rules with a 410 timestamp and Retry-After', () => {
    expect(check({ path: '/3/device/gone-1', rules: [{ prefix: 'gone-', status: 410, reason: 'Unregistered' }] })).toMatchObject({
      status: 410,
      reason: 'Unregistered',
      timestamp: NOW,
    });
    expect(check({ path: '/3/device/busy-1', rules: [{ prefix: 'busy-', status: 429, reason: 'TooManyRequests', retryAfterSeconds: 3 }] })).toMatchObject({
      status: 429,
      retryAfterSeconds: 3,
    });
  });

  it('echoes a valid apns-id', () => {
    const id = '123e4567-e89b-12d3-a456-426614174000';
    expect(check({ headers: { 'apns-id': id } })).toMatchObject({ apnsId: id });
    expect(check({ headers: { 'apns-id': 'nope' } })).toMatchObject({ reason: 'BadMessageId' });
  });

  it('verifies a provider token once per session cache, still checking its age every time', () => {
    const token = providerToken();
    const verifiedTokens = new Map<string, number>();
    const request = (now: number) =>
      checkApnsRequest(
        { method: 'POST', path: '/3/device/abc', headers: { authorization: `bearer ${token}`, 'apns-topic': 't', 'apns-push-type': 'alert' }, body: Buffer.from('{}') },
        { keys: new Map([[key.keyId, key]]), topics: undefined, rules: createRuleBook([]), now, verifiedTokens },
      );
    expect(request(NOW)).toMatchObject({ kind: 'accepted' });
    expect(verifiedTokens.get(token)).toBe(NOW / 1000);
    expect(request(NOW + 3601_000)).toMatchObject({ status: 403, reason: 'ExpiredProviderToken' });
    // A bad token is never cached.
    const bad = new Map<string, number>();
    const forged = providerToken({ signer: createTestApnsKey().keyPem });
    checkApnsRequest(
      { method: 'POST', path: '/3/device/abc', headers: { authorization: `bearer ${forged}`, 'apns-topic': 't', 'apns-push-type': 'alert' }, body: Buffer.from('{}') },
      { keys: new Map([[key.keyId, key]]), topics: undefined, rules: createRuleBook([]), now: NOW, verifiedTokens: bad },
    );
    expect(bad.size).toBe(0);
  });
});

describe('checkApnsRequest for Live Activities', () => {
  const TOPIC = 'com.example.app.push-type.liveactivity';
  const live = (token: string, timestamp: number, timestamps: Map<string, number>, rules: ApnsRule[] = []) =>
    checkApnsRequest(
      {
        method: 'POST',
        path: `/3/device/${token}`,
        headers: { authorization: `bearer ${providerToken()}`, 'apns-topic': TOPIC, 'apns-push-type': 'liveactivity' },
        body: Buffer.from(JSON.stringify({ aps: { timestamp, event: 'update', 'content-state': { n: 1 } } })),
      },
      { keys: new Map([[key.keyId, key]]), topics: new Set(['com.example.app']), rules: createRuleBook(rules), now: NOW, liveActivityTimestamps: timestamps },
    );

  it('allows the bundle id with Apple’s suffix and refuses the bare bundle id for liveactivity', () => {
    expect(live('tok', 10, new Map()).kind).toBe('accepted');
    expect(check({ topics: ['com.example.app'], headers: { 'apns-push-type': 'liveactivity' } })).toMatchObject({ status: 400, reason: 'BadTopic' });
  });

  it('wants each token’s timestamps to increase, counting only accepted pushes', () => {
    const timestamps = new Map<string, number>();
    expect(live('tok', 10, timestamps).kind).toBe('accepted');
    expect(live('tok', 10, timestamps)).toMatchObject({ status: 400, reason: 'LiveActivityTimestampNotIncreasing' });
    expect(live('other', 5, timestamps).kind).toBe('accepted');
    expect(live('busy-1', 20, timestamps, [{ prefix: 'busy-', status: 429, reason: 'TooManyRequests', times: 1 }])).toMatchObject({ status: 429 });
    expect(live('busy-1', 20, timestamps).kind).toBe('accepted');
  });
});
