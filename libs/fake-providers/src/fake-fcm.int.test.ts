import http2 from 'node:http2';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFcm, type FakeFcm } from './fake-fcm.ts';
import { createTestServiceAccount } from './test-keys.ts';
import { signTestJwt } from './test-jwt.ts';

const account = createTestServiceAccount();
let fcm: FakeFcm;

beforeAll(async () => {
  fcm = await startFakeFcm({ accounts: [account], rules: [{ prefix: 'quota-', errorCode: 'QUOTA_EXCEEDED', retryAfterSeconds: 30 }] });
});
afterAll(async () => {
  await fcm.close();
});

/** An HTTP/1.1 request, as google-auth-library and firebase-admin's `send()` make them. */
async function http1(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = https.request(`${fcm.url}${path}`, { method: 'POST', ca: fcm.ca, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function accessToken(signer = account.serviceAccount.private_key): Promise<{ status: number; json: Record<string, unknown> }> {
  const now = Math.floor(Date.now() / 1000);
  const assertion = signTestJwt(
    { alg: 'RS256', typ: 'JWT' },
    { iss: account.clientEmail, scope: 'https://www.googleapis.com/auth/firebase.messaging', aud: 'https://oauth2.googleapis.com/token', iat: now, exp: now + 3600 },
    signer,
  );
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
  return http1('/token', form, { 'content-type': 'application/x-www-form-urlencoded' });
}

describe('fake FCM', () => {
  it('runs the JWT-bearer grant over HTTP/1.1 and accepts sends with the token over HTTP/2', async () => {
    const token = await accessToken();
    expect(token).toMatchObject({ status: 200, json: { token_type: 'Bearer', expires_in: 3599 } });
    const session = http2.connect(fcm.url, { ca: fcm.ca });
    const stream = session.request({
      ':method': 'POST',
      ':path': `/v1/projects/${account.projectId}/messages:send`,
      authorization: `Bearer ${String(token.json.access_token)}`,
      'content-type': 'application/json',
    });
    stream.end(JSON.stringify({ message: { token: 'device-1', notification: { title: 'T', body: 'B' } } }));
    let body = '';
    for await (const chunk of stream) body += String(chunk);
    session.close();
    expect(JSON.parse(body)).toEqual({ name: expect.stringMatching(new RegExp(`^projects/${account.projectId}/messages/`)) as unknown });
    const [delivery] = await fcm.waitForDeliveries(1);
    expect(delivery).toMatchObject({ projectId: account.projectId, token: 'device-1', message: { notification: { title: 'T', body: 'B' } } });
    expect(fcm.oauth.issued).toBe(1);
  });

  it('refuses an assertion signed with another key, as Google does', async () => {
    const refused = await accessToken(createTestServiceAccount().serviceAccount.private_key);
    expect(refused).toEqual({ status: 400, json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } });
  });

  it('answers sends over HTTP/1.1 too, with Google error JSON and Retry-After', async () => {
    const token = await accessToken();
    const answer = await http1(`/v1/projects/${account.projectId}/messages:send`, JSON.stringify({ message: { token: 'quota-1' } }), {
      authorization: `Bearer ${String(token.json.access_token)}`,
      'content-type': 'application/json',
    });
    expect(answer).toEqual({
      status: 429,
      json: {
        error: {
          code: 429,
          message: 'Quota exceeded for sending messages.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'QUOTA_EXCEEDED' }],
        },
      },
    });
  });

  it('refuses sends without an access token it issued', async () => {
    const answer = await http1(`/v1/projects/${account.projectId}/messages:send`, '{"message":{"token":"x"}}', { authorization: 'Bearer forged' });
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
  });
});
