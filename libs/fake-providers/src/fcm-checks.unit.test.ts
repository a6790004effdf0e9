import { describe, expect, it } from 'vitest';
import { checkSendRequest, checkTokenRequest, type IssuedAccessToken } from './fcm-checks.ts';
import { createRuleBook } from './rules.ts';
import { createTestServiceAccount } from './test-keys.ts';
import { signTestJwt } from './test-jwt.ts';

const NOW = Date.parse('2025-01-01T00:00:00Z');
const account = createTestServiceAccount({ projectId: 'proj-a' });
const accounts = new Map([[account.clientEmail, account]]);

function assertion(claims: Record<string, unknown> = {}, signer = account.serviceAccount.private_key): string {
  const iat = NOW / 1000;
  const payload = { iss: account.clientEmail, scope: 'https://www.googleapis.com/auth/firebase.messaging', aud: 'https://oauth2.googleapis.com/token', iat, exp: iat + 3600, ...claims };
  return signTestJwt({ alg: 'RS256', typ: 'JWT' }, payload, signer);
}

function tokenRequest(jwt: string) {
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwt }).toString();
  return checkTokenRequest(body, { accounts, now: NOW, ttlSeconds: 3599 });
}

describe('checkTokenRequest', () => {
  it('issues a bearer token for a valid assertion', () => {
    const answer = tokenRequest(assertion());
    expect(answer).toMatchObject({ kind: 'issued', body: { expires_in: 3599, token_type: 'Bearer' }, grant: { projectId: 'proj-a' } });
  });

  it.each([
    ['a wrong signature', assertion({}, createTestServiceAccount().serviceAccount.private_key), 'invalid_grant', 'Invalid JWT Signature.'],
    ['an unknown account', assertion({ iss: 'who@nowhere.iam.gserviceaccount.com' }), 'invalid_grant', 'Invalid grant: account not found'],
    ['a long-lived assertion', assertion({ exp: NOW / 1000 + 7200 }), 'invalid_grant', expect.stringContaining('short-lived') as unknown],
    ['another audience', assertion({ aud: 'https://example.com/token' }), 'invalid_grant', 'Invalid JWT: Failed audience check.'],
    ['no FCM scope', assertion({ scope: 'https://www.googleapis.com/auth/userinfo.email' }), 'invalid_scope', expect.any(String) as unknown],
  ])('refuses %s', (_name, jwt, error, description) => {
    expect(tokenRequest(jwt)).toEqual({ kind: 'refused', status: 400, body: { error, error_description: description } });
  });
});

describe('checkSendRequest', () => {
  const tokens = new Map<string, IssuedAccessToken>([['good', { clientEmail: account.clientEmail, projectId: 'proj-a', expiresAt: NOW + 1000 }]]);
  const send = (message: unknown, overrides: { path?: string; authorization?: string } = {}) =>
    checkSendRequest(
      { method: 'POST', path: overrides.path ?? '/v1/projects/proj-a/messages:send', authorization: overrides.authorization ?? 'Bearer good', body: Buffer.from(JSON.stringify({ message })) },
      { tokens, rules: createRuleBook([{ prefix: 'gone-', errorCode: 'UNREGISTERED' as const }]), now: NOW },
    );

  it('accepts a message for a token', () => {
    expect(send({ token: 'ok-1', notification: { title: 't' } })).toMatchObject({ kind: 'accepted', token: 'ok-1', name: expect.stringMatching(/^projects\/proj-a\/messages\//) as unknown });
  });

  it('answers Google error JSON with the FCM error code', () => {
    expect(send({ token: 'gone-1' })).toEqual({
      kind: 'rejected',
      status: 404,
      reason: 'UNREGISTERED',
      body: { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }] } },
    });
  });

  it.each([
    ['an unknown access token', { token: 'a' }, { authorization: 'Bearer nope' }, 401, 'UNAUTHENTICATED'],
    ['another project', { token: 'a' }, { path: '/v1/projects/proj-b/messages:send' }, 403, 'PERMISSION_DENIED'],
    ['no target', { notification: {} }, {}, 400, 'INVALID_ARGUMENT'],
    ['non-string data', { token: 'a', data: { n: 1 } }, {}, 400, 'INVALID_ARGUMENT'],
    ['a payload over 4096 bytes', { token: 'a', data: { x: 'x'.repeat(4096) } }, {}, 400, 'INVALID_ARGUMENT'],
  ])('refuses %s', (_name, message, overrides, status, reason) => {
    expect(send(message, overrides)).toMatchObject({ kind: 'rejected', status, reason });
  });
});
