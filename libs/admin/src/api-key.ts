import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `hrld_<key id>_<secret>`. The key id finds the stored
 * record; only a SHA-256 of the whole key is stored, so a database leak does
 * not leak usable keys. (Keys are long random strings, so a fast hash is
 * enough; no password-style stretching is needed.)
 */
const PREFIX = 'hrld';

export interface GeneratedKey {
  keyId: string;
  apiKey: string;
  hash: string;
}

export function generateApiKey(): GeneratedKey {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(24).toString('base64url');
  const apiKey = `${PREFIX}_${keyId}_${secret}`;
  return { keyId, apiKey, hash: hashApiKey(apiKey) };
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/** The key id of a well-formed key, or undefined for anything else. */
export function parseApiKey(apiKey: string): { keyId: string } | undefined {
  const match = /^hrld_([0-9a-f]{16})_[A-Za-z0-9_-]{32}$/.exec(apiKey);
  return match === null ? undefined : { keyId: match[1]! };
}

export function apiKeyMatches(apiKey: string, storedHash: string): boolean {
  const given = Buffer.from(hashApiKey(apiKey), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** `Authorization: Bearer <key>` → the key, or undefined when the header is absent or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}
