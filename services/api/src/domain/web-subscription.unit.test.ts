import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isPushServiceHost, storedSubscription, webSubscriptionProblems } from './web-subscription.ts';

const browser = createECDH('prime256v1');
browser.generateKeys();
const valid = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def',
  expirationTime: null,
  keys: { p256dh: browser.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') },
};

describe('webSubscriptionProblems', () => {
  it("accepts a browser's PushSubscription.toJSON()", () => {
    expect(webSubscriptionProblems(valid, false)).toEqual([]);
    // Padded base64url is what some libraries give.
    expect(webSubscriptionProblems({ ...valid, keys: { p256dh: `${valid.keys.p256dh}=`, auth: `${valid.keys.auth}==` } }, false)).toEqual([]);
  });

  it('refuses a p256dh that is not an uncompressed point on P-256', () => {
    const P256DH = 'subscription.keys.p256dh must be base64url of an uncompressed P-256 public key (65 bytes starting 0x04, on the curve)';
    const compressed = browser.getPublicKey('base64url', 'compressed');
    const offCurve = Buffer.from(browser.getPublicKey());
    offCurve[64] = offCurve[64]! ^ 1;
    const wrongPrefix = Buffer.from(browser.getPublicKey());
    wrongPrefix[0] = 0x05;
    for (const p256dh of [compressed, offCurve.toString('base64url'), wrongPrefix.toString('base64url'), 'not base64!', Buffer.alloc(65, 4).toString('base64url')]) {
      expect({ p256dh, problems: webSubscriptionProblems({ ...valid, keys: { ...valid.keys, p256dh } }, false) }).toEqual({ p256dh, problems: [P256DH] });
    }
  });

  it('refuses an auth secret that is not 16 bytes', () => {
    for (const auth of [randomBytes(15).toString('base64url'), randomBytes(17).toString('base64url'), 'a+b/']) {
      expect(webSubscriptionProblems({ ...valid, keys: { ...valid.keys, auth } }, false)).toEqual(['subscription.keys.auth must be base64url of 16 bytes']);
    }
  });

  it('holds the endpoint to the webhook URL rules, naming subscription.endpoint', () => {
    expect(webSubscriptionProblems({ ...valid, endpoint: 'http://push.example/x' }, false)).toEqual(['subscription.endpoint must use https (http only to a loopback host in local mode)']);
    expect(webSubscriptionProblems({ ...valid, endpoint: 'https://10.0.0.1/x' }, false)).toEqual([
      'subscription.endpoint must name its host, not an IP address (a loopback address only in local mode)',
    ]);
    expect(webSubscriptionProblems({ ...valid, endpoint: 'nope' }, false)).toEqual(['subscription.endpoint must be an absolute URL']);
  });

  it('allows loopback http and https endpoints in local mode only', () => {
    for (const endpoint of ['http://127.0.0.1:4100/push/1', 'https://localhost:4100/push/1']) {
      expect(webSubscriptionProblems({ ...valid, endpoint }, true)).toEqual([]);
    }
    expect(webSubscriptionProblems({ ...valid, endpoint: 'http://127.0.0.1:4100/push/1' }, false)).toHaveLength(2);
    expect(webSubscriptionProblems({ ...valid, endpoint: 'http://10.0.0.1/push/1' }, true)).toHaveLength(2);
  });
});

describe('the push service hosts (WEBPUSH_ENDPOINT_HOSTS)', () => {
  const hosts = ['fcm.googleapis.com', 'push.services.mozilla.com', 'web.push.apple.com', 'notify.windows.com'];

  it('allows the listed hosts and their subdomains only', () => {
    for (const host of ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', 'wns2-par02p.notify.windows.com', 'FCM.googleapis.com']) {
      expect({ host, allowed: isPushServiceHost(host, hosts, false) }).toEqual({ host, allowed: true });
    }
    for (const host of ['googleapis.com', 'evilfcm.googleapis.com.example', 'notify.windows.com.evil.net', 'victim.example']) {
      expect({ host, allowed: isPushServiceHost(host, hosts, false) }).toEqual({ host, allowed: false });
    }
  });

  it('* allows any host; local mode allows loopback besides the list', () => {
    expect(isPushServiceHost('victim.example', ['*'], false)).toBe(true);
    expect(isPushServiceHost('127.0.0.1', hosts, true)).toBe(true);
    expect(isPushServiceHost('localhost', hosts, false)).toBe(false);
  });

  it('names the setting when an endpoint is elsewhere', () => {
    expect(webSubscriptionProblems({ ...valid, endpoint: 'https://victim.example/hook' }, false, hosts)).toEqual([
      "subscription.endpoint must be on a push service's host (fcm.googleapis.com, push.services.mozilla.com, web.push.apple.com, notify.windows.com, or their subdomains: WEBPUSH_ENDPOINT_HOSTS)",
    ]);
    expect(webSubscriptionProblems(valid, false, hosts)).toEqual([]);
  });
});

describe('storedSubscription', () => {
  it('keeps canonical base64url keys, the expiration time in whole ms and the VAPID key id', () => {
    const stored = storedSubscription({ ...valid, expirationTime: 1_767_225_600_000.4, keys: { p256dh: `${valid.keys.p256dh}=`, auth: valid.keys.auth } }, 'k1');
    expect(stored).toEqual({ endpoint: valid.endpoint, p256dh: valid.keys.p256dh, auth: valid.keys.auth, expiration_time: 1_767_225_600_000, key_id: 'k1' });
    expect(storedSubscription(valid, 'k1').expiration_time).toBeNull();
  });
});
