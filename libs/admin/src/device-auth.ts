import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Identity verification (opt-in per project): the project's servers hold a
 * device-auth secret and hand each signed-in device proofs that only they
 * can compute, `hex(HMAC-SHA256(key = secret, message = "<purpose>:<value>"))`:
 *
 * - `identifier_hash` for `PATCH /api/v1/metadata`: purpose `identifier`;
 * - `external_id_hash` for a registration's `external_id`: purpose `external_id`.
 *
 * The purpose in the message separates the two: a proof handed out for one
 * (a metadata write) is never accepted for the other (linking a device to a
 * user), although both come from the same secret.
 *
 * The secret is used as the HMAC key exactly as printed (its UTF-8 bytes), so
 * `createHmac('sha256', secret)` in Node, `hmac.new(secret.encode(), ...)` in
 * Python and the like agree without decoding anything first.
 */
const PREFIX = 'hdas';
const SECRET_PATTERN = /^hdas_[0-9a-f]{64}$/;
const HASH_PATTERN = /^[0-9a-fA-F]{64}$/;

/** What a device-auth proof is for; part of the signed message. */
export type ProofPurpose = 'identifier' | 'external_id';

/** A new device-auth secret: `hdas_` and 32 random bytes in hex (the prefix makes a leaked one easy to grep for). */
export function generateDeviceAuthSecret(): string {
  return `${PREFIX}_${randomBytes(32).toString('hex')}`;
}

export function isDeviceAuthSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

function proofBytes(secret: string, purpose: ProofPurpose, value: string): Buffer {
  return createHmac('sha256', secret).update(`${purpose}:${value}`, 'utf8').digest();
}

/** Lower-case hex HMAC-SHA256 of `<purpose>:<value>` (UTF-8) under the secret. */
export function deviceProof(secret: string, purpose: ProofPurpose, value: string): string {
  return proofBytes(secret, purpose, value).toString('hex');
}

/**
 * Whether `given` is the value's proof for this purpose under the secret.
 * Hex of either case is accepted; the comparison of the 32 decoded bytes is
 * constant-time, so response timing does not reveal how many leading bytes
 * were right.
 */
export function deviceProofMatches(secret: string, purpose: ProofPurpose, value: string, given: string): boolean {
  if (!HASH_PATTERN.test(given)) return false;
  return timingSafeEqual(proofBytes(secret, purpose, value), Buffer.from(given, 'hex'));
}
