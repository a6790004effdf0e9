import { createHash, timingSafeEqual } from 'node:crypto';

export interface RefreshClaim {
  /** The token the named device holds now. */
  currentToken: string;
  /** The token the registration brings. */
  newToken: string;
  /** What the caller offers as proof of being that device. */
  previousToken: string | undefined;
  /** The project of the caller's bearer key, when it sent one. */
  bearerProjectId: string | undefined;
  /** The project the device belongs to. */
  projectId: string;
}

/** Compares secrets without leaking where they differ (hashing first evens out lengths). */
function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * May a registration that names an existing device id point it at `newToken`?
 * Re-pointing moves the device's notifications to whoever holds the new token,
 * so it needs proof (pure): the same token needs none (the caller holds it);
 * otherwise the device's current token as `previous_token`, or the project's
 * bearer key (the app's own server refreshing on the device's behalf).
 */
export function mayRepointDevice(claim: RefreshClaim): boolean {
  if (claim.newToken === claim.currentToken) return true;
  if (claim.bearerProjectId !== undefined && claim.bearerProjectId === claim.projectId) return true;
  return claim.previousToken !== undefined && sameSecret(claim.previousToken, claim.currentToken);
}
