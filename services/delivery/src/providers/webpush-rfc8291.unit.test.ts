import { createECDH } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * web-push encrypts with http_ece (encryption-helper.js: `ece.encrypt` with
 * `version: 'aes128gcm'`, the subscription's `dh` and `authSecret`, a fresh
 * ECDH key and salt). Given RFC 8291's fixed key and salt, the same call
 * must produce the RFC's message byte for byte: the key derivation (ECDH,
 * the two HKDF steps with "WebPush: info" and the key ids) and the record
 * layout are then exactly RFC 8291's.
 */
const require = createRequire(import.meta.url);
const ece = require('http_ece') as {
  encrypt(plaintext: Buffer, params: Record<string, unknown>): Buffer;
  decrypt(ciphertext: Buffer, params: Record<string, unknown>): Buffer;
};

// RFC 8291, Appendix A.
const RFC = {
  plaintext: 'When I grow up, I want to be a watermelon',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  authSecret: 'BTBZMqHH6r4Tts7J_aSIgg',
  message:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

function ecdh(privateKey: string) {
  const key = createECDH('prime256v1');
  key.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return key;
}

describe('RFC 8291 appendix A', () => {
  it("the keys are the RFC's pairs", () => {
    expect(ecdh(RFC.asPrivate).getPublicKey('base64url')).toBe(RFC.asPublic);
    expect(ecdh(RFC.uaPrivate).getPublicKey('base64url')).toBe(RFC.uaPublic);
  });

  it('encrypting as web-push does reproduces the example message byte for byte', () => {
    const encrypted = ece.encrypt(Buffer.from(RFC.plaintext), {
      version: 'aes128gcm',
      dh: RFC.uaPublic,
      privateKey: ecdh(RFC.asPrivate),
      salt: RFC.salt,
      authSecret: RFC.authSecret,
    });
    expect(encrypted.toString('base64url')).toBe(RFC.message);
  });

  it('the user agent decrypts the example message with its private key and auth secret', () => {
    const decrypted = ece.decrypt(Buffer.from(RFC.message, 'base64url'), { version: 'aes128gcm', privateKey: ecdh(RFC.uaPrivate), authSecret: RFC.authSecret });
    expect(decrypted.toString()).toBe(RFC.plaintext);
  });
});
