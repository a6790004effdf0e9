import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateVapidKey, summarizeWebPush, withNewVapidKey } from '@herald/admin';
import { prepareRegistration } from './web-registration.ts';

const browser = createECDH('prime256v1');
browser.generateKeys();
const subscription = { endpoint: 'https://push.example.net/s/1', expirationTime: null, keys: { p256dh: browser.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') } };
const oldKey = generateVapidKey();
const currentKey = generateVapidKey();
const keys = summarizeWebPush(withNewVapidKey(withNewVapidKey(undefined, 'mailto:a@example.com', oldKey), undefined, currentKey));
const web = { project_id: 'p1', platform: 'web' as const, subscription };

describe('prepareRegistration', () => {
  it("makes a web device's token its endpoint and records the current key", () => {
    const prepared = prepareRegistration(web, keys, false);
    expect(prepared).toEqual({
      ok: true,
      input: { project_id: 'p1', platform: 'web', token: subscription.endpoint },
      subscription: { endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, expiration_time: null, key_id: currentKey.id },
    });
  });

  it('records the key the browser names, when it is one of the project\'s', () => {
    const prepared = prepareRegistration({ ...web, application_server_key: oldKey.public_key }, keys, false);
    expect(prepared.ok && prepared.subscription?.key_id).toBe(oldKey.id);
    expect(prepareRegistration({ ...web, application_server_key: generateVapidKey().public_key }, keys, false)).toEqual({
      ok: false,
      status: 400,
      problems: [expect.stringMatching(/^application_server_key is not one of the project's Web Push keys/)],
    });
  });

  it('refuses a web registration with a token or without a subscription, and names bad subscription fields', () => {
    expect(prepareRegistration({ ...web, token: 'abc' }, keys, false)).toMatchObject({ ok: false, status: 400, problems: [expect.stringMatching(/^token is not used for platform web/)] });
    expect(prepareRegistration({ project_id: 'p1', platform: 'web' }, keys, false)).toMatchObject({ ok: false, status: 400, problems: [expect.stringMatching(/^subscription is required/)] });
    const bad = prepareRegistration({ ...web, subscription: { ...subscription, keys: { ...subscription.keys, auth: 'AAAA' } } }, keys, false);
    expect(bad).toEqual({ ok: false, status: 400, problems: ['subscription.keys.auth must be base64url of 16 bytes'] });
  });

  it('answers 422 when the project has no Web Push keys', () => {
    expect(prepareRegistration(web, undefined, false)).toMatchObject({ ok: false, status: 422, problems: [expect.stringContaining('has no Web Push keys')] });
  });

  it('allows a loopback endpoint only in local mode', () => {
    const local = { ...web, subscription: { ...subscription, endpoint: 'http://127.0.0.1:4000/push/x' } };
    expect(prepareRegistration(local, keys, true).ok).toBe(true);
    expect(prepareRegistration(local, keys, false).ok).toBe(false);
  });

  it('keeps ios and android as they were: a token, no subscription', () => {
    expect(prepareRegistration({ project_id: 'p1', platform: 'ios', token: 'ab' }, undefined, false)).toEqual({ ok: true, input: { project_id: 'p1', platform: 'ios', token: 'ab' } });
    expect(prepareRegistration({ project_id: 'p1', platform: 'android' }, undefined, false)).toEqual({ ok: false, status: 400, problems: ['token is required for platform android'] });
    expect(prepareRegistration({ project_id: 'p1', platform: 'ios', token: 'ab', subscription }, keys, false)).toEqual({ ok: false, status: 400, problems: ['subscription is only for platform web'] });
  });
});
