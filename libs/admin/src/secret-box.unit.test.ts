import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError, ConfigError } from '@herald/errors';
import { generateSecretKey, open, parseSecretKey, seal, type SealedBox } from './secret-box.ts';

const key = parseSecretKey(generateSecretKey());
const AAD = 'herald/provider-credentials/v1/project-a/apns';

/** Flips one bit of a base64 field. */
function flip(base64: string, index = 0): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[index] = bytes[index]! ^ 1;
  return bytes.toString('base64');
}

function expectCannotOpen(run: () => unknown): void {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'INVALID_CONFIG', message: expect.stringMatching(/HERALD_SECRET_KEY|sealed box/) });
}

describe('parseSecretKey', () => {
  it('accepts base64, base64url and hex of 32 bytes and more, and derives a 32-byte key', () => {
    const bytes = randomBytes(32);
    const fromBase64 = parseSecretKey(bytes.toString('base64'));
    expect(fromBase64).toHaveLength(32);
    expect(parseSecretKey(bytes.toString('base64url'))).toEqual(fromBase64);
    expect(parseSecretKey(bytes.toString('hex'))).toEqual(fromBase64);
    expect(parseSecretKey(bytes.toString('hex').toUpperCase())).toEqual(fromBase64);
    expect(parseSecretKey(` ${bytes.toString('base64')}\n`)).toEqual(fromBase64);
    expect(parseSecretKey(randomBytes(64).toString('base64'))).toHaveLength(32);
  });

  it('derives rather than uses the secret: the key is not the decoded bytes', () => {
    const bytes = randomBytes(32);
    expect(parseSecretKey(bytes.toString('base64'))).not.toEqual(bytes);
  });

  it('gives different keys for different secrets, the same key for the same secret', () => {
    const secret = generateSecretKey();
    expect(parseSecretKey(secret)).toEqual(parseSecretKey(secret));
    expect(parseSecretKey(secret)).not.toEqual(parseSecretKey(generateSecretKey()));
  });

  it.each([
    ['fewer than 32 bytes (base64)', randomBytes(31).toString('base64'), /decodes to 31 bytes/],
    ['fewer than 32 bytes (hex)', randomBytes(16).toString('hex'), /decodes to 16 bytes/],
    ['a passphrase', 'correct horse battery staple, but not encoded!', /neither/],
    ['junk inside base64', `${randomBytes(33).toString('base64')}!!`, /neither/],
    ['base64 padding in the middle', `${randomBytes(32).toString('base64')}${randomBytes(3).toString('base64')}`, /neither/],
    ['empty', '', /neither/],
  ])('refuses %s with a ConfigError naming HERALD_SECRET_KEY and the rule', (_, value, reason) => {
    let error: unknown;
    try {
      parseSecretKey(value);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('HERALD_SECRET_KEY must be the base64 or hex encoding of at least 32 bytes');
    expect(message).toMatch(reason);
    if (value.length > 8) expect(message).not.toContain(value.trim());
  });

  it('generates base64 keys of 32 random bytes', () => {
    const generated = generateSecretKey();
    expect(Buffer.from(generated, 'base64')).toHaveLength(32);
    expect(generated).not.toBe(generateSecretKey());
  });
});

describe('seal / open', () => {
  it('round-trips text, including unicode and the empty string', () => {
    for (const text of ['{"keyPem":"-----BEGIN PRIVATE KEY-----\\n…"}', 'ünïcødé ✓', '']) {
      const sealed = seal(key, text, AAD);
      expect(sealed).toMatchObject({ v: 1 });
      expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
      expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
      expect(open(key, sealed, AAD)).toBe(text);
    }
  });

  it('never shows the plaintext and uses a fresh iv each time', () => {
    const secret = 'top-secret-private-key-material';
    const a = seal(key, secret, AAD);
    const b = seal(key, secret, AAD);
    expect(JSON.stringify(a)).not.toContain(secret);
    expect(Buffer.from(a.data, 'base64').toString('utf8')).not.toContain(secret);
    expect(a.iv).not.toBe(b.iv);
    expect(a.data).not.toBe(b.data);
  });

  it('does not open with another key', () => {
    const sealed = seal(key, 'secret', AAD);
    expectCannotOpen(() => open(parseSecretKey(generateSecretKey()), sealed, AAD));
  });

  it('does not open for another aad (another project or provider)', () => {
    const sealed = seal(key, 'secret', AAD);
    expectCannotOpen(() => open(key, sealed, 'herald/provider-credentials/v1/project-b/apns'));
    expectCannotOpen(() => open(key, sealed, 'herald/provider-credentials/v1/project-a/fcm'));
  });

  it('detects tampering with data, iv or tag, and a truncated tag', () => {
    const sealed = seal(key, 'some secret text', AAD);
    const tampered: SealedBox[] = [
      { ...sealed, data: flip(sealed.data) },
      { ...sealed, data: flip(sealed.data, 15) },
      { ...sealed, iv: flip(sealed.iv) },
      { ...sealed, tag: flip(sealed.tag) },
      { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 12).toString('base64') },
      { ...sealed, data: Buffer.from(sealed.data, 'base64').subarray(1).toString('base64') },
    ];
    for (const box of tampered) expectCannotOpen(() => open(key, box, AAD));
  });

  it('refuses boxes of an unknown version or shape', () => {
    const sealed = seal(key, 'secret', AAD);
    expectCannotOpen(() => open(key, { ...sealed, v: 2 } as unknown as SealedBox, AAD));
    expectCannotOpen(() => open(key, { v: 1, iv: sealed.iv } as unknown as SealedBox, AAD));
    expectCannotOpen(() => open(key, null as unknown as SealedBox, AAD));
  });

  it('refuses a key that was not derived to 32 bytes', () => {
    expect(() => seal(randomBytes(16), 'secret', AAD)).toThrow(ConfigError);
    expect(() => open(randomBytes(16), seal(key, 'x', AAD), AAD)).toThrow(ConfigError);
  });
});
