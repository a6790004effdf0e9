import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { AppError, ConfigError } from '@herald/errors';

/**
 * Authenticated encryption for secrets at rest (provider credentials), keyed
 * by HERALD_SECRET_KEY. AES-256-GCM with a random 96-bit IV per record (the
 * size GCM is specified for, NIST SP 800-38D §8.2.2) and a full 128-bit tag.
 * The additional authenticated data binds a record to where it belongs, so a
 * sealed value copied to another project or provider does not open.
 */
export interface SealedBox {
  /** Format version: algorithm and key derivation. */
  v: 1;
  /** base64, 12 bytes. */
  iv: string;
  /** base64, 16 bytes. */
  tag: string;
  /** base64 ciphertext. */
  data: string;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** HKDF context: a key derived for this purpose is useless for any other. */
const HKDF_SALT = 'herald';
const HKDF_INFO = 'herald provider credentials v1';
const KEY_RULE = `HERALD_SECRET_KEY must be the base64 or hex encoding of at least ${KEY_BYTES} bytes (e.g. \`openssl rand -base64 32\`)`;

/** Bytes of `value` as hex (tried first: only hex digits, even length) or base64 / base64url; undefined for anything else. */
function decodeKeyMaterial(value: string): Buffer | undefined {
  if (/^(?:[0-9a-fA-F]{2})+$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  // Buffer.from is lenient (it stops at junk); require the text to be exactly what the bytes encode.
  const canonical = (text: string) => text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return canonical(bytes.toString('base64url')) === canonical(value) ? bytes : undefined;
}

/**
 * HERALD_SECRET_KEY → the 32-byte AES key. Any secret of at least 32 bytes
 * works: HKDF-SHA256 (RFC 5869) derives the key from it. The value itself
 * never appears in an error.
 */
export function parseSecretKey(value: string): Buffer {
  const bytes = decodeKeyMaterial(value.trim());
  if (bytes === undefined) throw new ConfigError([`${KEY_RULE}; it is neither`]);
  if (bytes.length < KEY_BYTES) throw new ConfigError([`${KEY_RULE}; it decodes to ${bytes.length} bytes`]);
  return Buffer.from(hkdfSync('sha256', bytes, HKDF_SALT, HKDF_INFO, KEY_BYTES));
}

/** A new HERALD_SECRET_KEY value: base64 of 32 random bytes. */
export function generateSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new ConfigError([`the secret-box key must be ${KEY_BYTES} bytes; derive it with parseSecretKey(HERALD_SECRET_KEY)`]);
}

export function seal(key: Buffer, plaintext: string, aad: string): SealedBox {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { v: 1, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

const CANNOT_OPEN =
  'stored secret cannot be decrypted: HERALD_SECRET_KEY is not the key it was sealed with, or the stored record was altered or moved';

function isSealedBox(value: unknown): value is SealedBox {
  if (typeof value !== 'object' || value === null) return false;
  const box = value as Record<string, unknown>;
  return box.v === 1 && typeof box.iv === 'string' && typeof box.tag === 'string' && typeof box.data === 'string';
}

/** The plaintext of a sealed box; AppError `INVALID_CONFIG` for a wrong key, wrong aad, or altered / malformed box. */
export function open(key: Buffer, sealed: SealedBox, aad: string): string {
  checkKey(key);
  if (!isSealedBox(sealed)) throw new AppError('INVALID_CONFIG', 'stored secret is not a sealed box of a known version (v: 1)');
  const iv = Buffer.from(sealed.iv, 'base64');
  const tag = Buffer.from(sealed.tag, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new AppError('INVALID_CONFIG', CANNOT_OPEN);
  try {
    // authTagLength pins the tag size: without it GCM would accept a truncated tag.
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  } catch (cause) {
    throw new AppError('INVALID_CONFIG', CANNOT_OPEN, { cause });
  }
}
