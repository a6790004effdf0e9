import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { currentPublicKey, generateVapidKey, keyIdOfPublicKey, summarizeWebPush, vapidKeyFor, vapidKeyId, vapidSubjectProblem, withNewVapidKey } from './webpush-keys.ts';

describe('VAPID keys', () => {
  it('generates a P-256 pair whose public key is the private key\'s, with a stable id', () => {
    const key = generateVapidKey(new Date('2026-01-01T00:00:00Z'));
    expect(Buffer.from(key.public_key, 'base64url')).toHaveLength(65);
    expect(Buffer.from(key.private_key, 'base64url')).toHaveLength(32);
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(key.private_key, 'base64url'));
    expect(ecdh.getPublicKey('base64url')).toBe(key.public_key);
    expect(key.id).toBe(vapidKeyId(key.public_key));
    expect(key.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(key.created_at).toBe('2026-01-01T00:00:00.000Z');
  });

  it('rotation makes the new key current and keeps the old ones for their subscriptions', () => {
    const first = generateVapidKey();
    const second = generateVapidKey();
    const once = withNewVapidKey(undefined, 'mailto:push@example.com', first);
    const twice = withNewVapidKey(once, undefined, second);
    expect(twice.subject).toBe('mailto:push@example.com');
    expect(twice.keys.map((key) => key.id)).toEqual([first.id, second.id]);
    const summary = summarizeWebPush(twice);
    expect(summary.current_key_id).toBe(second.id);
    expect(currentPublicKey(summary)).toEqual({ key_id: second.id, public_key: second.public_key });
    expect(vapidKeyFor(twice, first.id)).toEqual(first);
    expect(keyIdOfPublicKey(summary, first.public_key)).toBe(first.id);
    expect(keyIdOfPublicKey(summary, generateVapidKey().public_key)).toBeUndefined();
    // The summary never holds a private key.
    expect(JSON.stringify(summary)).not.toContain(first.private_key);
  });

  it('needs a subject for the first key, and only mailto: or https:', () => {
    expect(() => withNewVapidKey(undefined, undefined, generateVapidKey())).toThrow(/subject is required/);
    expect(vapidSubjectProblem('mailto:push@example.com')).toBeUndefined();
    expect(vapidSubjectProblem('https://example.com/contact')).toBeUndefined();
    for (const subject of ['push@example.com', 'http://example.com', 'mailto:nobody', `mailto:${'a'.repeat(600)}@x.com`]) {
      expect({ subject, problem: vapidSubjectProblem(subject) }).toEqual({ subject, problem: expect.any(String) });
    }
  });
});
