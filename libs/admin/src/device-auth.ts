import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Identity verification (opt-in per project): the project's servers hold a
 * device-auth secret and hand each signed-in device
 * `identifier_hash = hex(HMAC-SHA256(key = secret, message = identifier))`;
 * `PATCH /api/v1/metadata` then only accepts an identifier with its hash, so
 * knowing a user id or an email is no longer enough to write that user's
 * device metadata.
 *
 * The secret is used as the HMAC key exactly as printed (its UTF-8 bytes), so
 * `createHmac('sha256', secret)` in Node, `hmac.new(secret.encode(), ...)` in
 * Python and the like agree without decoding anything first.
 */
const PREFIX = 'hdas';
const SECRET_PATTERN = /^hdas_[0-9a-f]{64}$/;
const HASH_PATTERN = /^[0-9a-fA-F]{64}$/;

/** A new device-auth secret: `hdas_` and 32 random bytes in hex (the prefix makes a leaked one easy to grep for). */
export function generateDeviceAuthSecret(): string {
  return `${PREFIX}_${randomBytes(32).toString('hex')}`;
}

export function isDeviceAuthSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/** Lower-case hex HMAC-SHA256 of the identifier's UTF-8 bytes under the secret. */
export function identifierHash(secret: string, identifier: string): string {
  return createHmac('sha256', secret).update(identifier, 'utf8').digest('hex');
}

/**
 * Whether `given` is the identifier's hash under the secret. Hex of either
 * case is accepted; the comparison of the 32 decoded bytes is constant-time,
 * so response timing does not reveal how many leading bytes were right.
 */
export function identifierHashMatches(secret: string, identifier: string, given: string): boolean {
  if (!HASH_PATTERN.test(given)) return false;
  const expected = createHmac('sha256', secret).update(identifier, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
