import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '@herald/admin';

/** What the operator endpoints (/admin/v1) need; absent: they are not registered (404). */
export interface OperatorOptions {
  /** HERALD_ADMIN_TOKEN. */
  token: string;
  /** Requests per client address per window, right token or not. */
  perAddress: number;
  windowMs: number;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Does the request's `Authorization: Bearer <token>` carry the operator
 * token? Compared as SHA-256 digests with `timingSafeEqual`: equal lengths
 * whatever was sent, so the time taken says nothing about how much of the
 * token a guess got right (nor its length). A project API key never matches.
 */
export function isOperatorToken(expected: string, authorization: string | undefined): boolean {
  const presented = bearerToken(authorization);
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}
