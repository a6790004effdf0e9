import { createPublicKey, verify, type KeyObject } from 'node:crypto';

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a compact JWS; `undefined` when it is not three base64url JSON parts. Verifies nothing. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [head, body, signature] = parts as [string, string, string];
  const header = decodePart(head);
  const payload = decodePart(body);
  if (header === undefined || payload === undefined) return undefined;
  return { header, payload, signingInput: `${head}.${body}`, signature: Buffer.from(signature, 'base64url') };
}

/**
 * Checks the signature for the two algorithms the providers use: ES256 for
 * APNs provider tokens (JOSE's raw r||s signature, hence `ieee-p1363`) and
 * RS256 for Google's JWT-bearer OAuth assertion.
 */
export function verifyJwtSignature(jwt: DecodedJwt, algorithm: 'ES256' | 'RS256', publicKey: string | KeyObject): boolean {
  if (jwt.header.alg !== algorithm) return false;
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  try {
    return algorithm === 'ES256'
      ? verify('sha256', Buffer.from(jwt.signingInput), { key, dsaEncoding: 'ieee-p1363' }, jwt.signature)
      : verify('sha256', Buffer.from(jwt.signingInput), key, jwt.signature);
  } catch {
    return false;
  }
}
