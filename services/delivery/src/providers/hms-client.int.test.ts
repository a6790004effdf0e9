import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeTls, startFakeHms, type FakeHms } from '@herald/fake-providers';
import type { PushMessage } from '@herald/push-payloads';
import { createHmsClient, type HmsClient } from './hms-client.ts';
import type { HmsCredential } from './hms-token-cache.ts';

/** The client against the fake Push Kit, which checks the OAuth client, the bearer and every body. */
let fake: FakeHms;
let client: HmsClient;
const credential: HmsCredential = { appId: '101234567', clientId: '101234567', clientSecret: 'the-client-secret' };
const message: PushMessage = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'p1', title: 'Sale', body: 'Ends tonight', link_to: 'shop://sale', ttl: 600, priority: 'high' };
const token = (label: string, index: number) => `${label}${String(index).padStart(4, '0')}${'A'.repeat(100)}`;
const targets = (label: string, count: number) => Array.from({ length: count }, (_, index) => ({ device_id: `${label}-d${index}`, token: token(label, index) }));

beforeAll(async () => {
  const tls = await createFakeTls();
  fake = await startFakeHms({ tls, apps: [credential] });
  client = createHmsClient({ endpoint: fake.url, tokenEndpoint: fake.tokenUrl, maxInFlight: 4, timeoutMs: 5000, ca: tls.ca });
});
afterAll(async () => {
  client?.close();
  await fake?.close();
});

describe('the HMS client and the fake Push Kit', () => {
  it('sends one multicast per 1,000 tokens with one OAuth token', async () => {
    fake.reset();
    const granted = fake.tokensGranted;
    const results = await client.send(credential, targets('ok', 1001), message);
    expect(results.every((result) => result.outcome === 'delivered')).toBe(true);
    expect(results[1000]!.device_id).toBe('ok-d1000');
    expect(fake.deliveries.map((delivery) => delivery.tokens.length).sort((a, b) => a - b)).toEqual([1, 1000]);
    const sent = fake.deliveries[0]!.message as { android: { urgency: string; ttl: string; notification: { title: string; click_action: { type: number } } }; data: string };
    expect(sent.android).toMatchObject({ urgency: 'HIGH', ttl: '600s', notification: { title: 'Sale', click_action: { type: 3 } } });
    expect(JSON.parse(sent.data)).toMatchObject({ notification_id: message.notification_id, link_to: 'shop://sale' });
    expect(fake.tokensGranted - granted).toBe(1);
  });

  it('a partial success makes the illegal tokens invalid and delivers the rest', async () => {
    fake.reset();
    fake.setRules([{ prefix: 'bad', answer: 'illegal' }]);
    const results = await client.send(credential, [...targets('good', 2), ...targets('bad', 1)], message);
    expect(results.map((result) => [result.device_id, result.outcome])).toEqual([['good-d0', 'delivered'], ['good-d1', 'delivered'], ['bad-d0', 'token-invalid']]);
    expect(results[2]!.reason).toBe('IllegalToken');
    expect(fake.deliveries[0]!.tokens).toEqual([token('good', 0), token('good', 1)]);
    fake.setRules([]);
  });

  it('an expired OAuth token is refreshed and the request sent again once', async () => {
    fake.reset();
    await client.send(credential, targets('warm', 1), message);
    const granted = fake.tokensGranted;
    fake.expireTokens();
    const results = await client.send(credential, targets('exp', 2), message);
    expect(results.every((result) => result.outcome === 'delivered')).toBe(true);
    expect(fake.tokensGranted - granted).toBe(1);
    expect(fake.stats.byReason['80200003']).toBe(1);
  });

  it('a token Push Kit keeps refusing after the refresh fails the send without a third request', async () => {
    fake.reset();
    fake.setRules([{ prefix: 'stale', answer: 'token-expired' }]);
    const results = await client.send(credential, targets('stale', 1), message);
    expect(results[0]).toMatchObject({ outcome: 'rejected', reason: 'OAuthTokenExpired' });
    expect(fake.stats.requests).toBe(2);
    fake.setRules([]);
  });

  it('503 and 429 are retryable (with Retry-After), and a later send is delivered', async () => {
    fake.reset();
    fake.setRules([{ prefix: 'busy', answer: 503, times: 1 }, { prefix: 'slow', answer: 429, retryAfterSeconds: 2, times: 1 }]);
    expect((await client.send(credential, targets('busy', 1), message))[0]).toMatchObject({ outcome: 'retryable', reason: 'Http503' });
    expect((await client.send(credential, targets('slow', 1), message))[0]).toMatchObject({ outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 2000 });
    expect((await client.send(credential, targets('busy', 1), message))[0]!.outcome).toBe('delivered');
    fake.setRules([]);
  });

  it('a wrong client secret fails the send; a malformed token is invalid without a request', async () => {
    fake.reset();
    const wrong = await client.send({ ...credential, clientSecret: 'wrong' }, targets('w', 1), message);
    expect(wrong[0]).toMatchObject({ outcome: 'rejected', reason: 'OAuthClientRefused' });
    const malformed = await client.send(credential, [{ device_id: 'm', token: 'not a token' }], message);
    expect(malformed[0]).toMatchObject({ outcome: 'token-invalid', reason: 'InvalidTokenForm' });
    expect(fake.stats.requests).toBe(0);
  });

  it("another app's token is refused with NoPermission", async () => {
    fake.reset();
    const other: HmsCredential = { appId: '109999999', clientId: '109999999', clientSecret: 's2' };
    fake.registerApp({ ...other, appId: '101234567' });
    const results = await client.send({ ...other, appId: '108888888' }, targets('x', 1), message);
    expect(results[0]).toMatchObject({ outcome: 'rejected', reason: 'NoPermission' });
  });
});
