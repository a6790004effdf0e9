import { deviceProofMatches, type IdentityVerification } from '@herald/admin';
import { UnauthorizedError } from '@herald/errors';

/**
 * May this metadata write go ahead? With identity verification off, any
 * identifier may be written (a given `identifier_hash` is ignored); with it
 * on, only one whose `identifier_hash` is its proof (purpose `identifier`)
 * under the project's device-auth secret. Throws 401 otherwise; the message never says what the
 * right hash would have been.
 */
export function checkIdentifierHash(setting: IdentityVerification, identifier: string, identifierHash: string | undefined): void {
  if (!setting.enabled) return;
  if (identifierHash === undefined) {
    throw new UnauthorizedError('identifier_hash is required: identity verification is on for this project');
  }
  if (!deviceProofMatches(setting.secret, 'identifier', identifier, identifierHash)) {
    throw new UnauthorizedError('identifier_hash is not the HMAC-SHA256 of "identifier:" + identifier under the project’s device-auth secret');
  }
}

/**
 * May this registration set `external_id`? Attaching a device to a user
 * means it receives that user's pushes, so a stranger may not claim one:
 * allowed with the project's bearer key (a server registering for its user),
 * with identity verification on and `external_id_hash` its proof (purpose
 * `external_id`: a metadata proof for the same value does not do), or when
 * the device already has that external id (nothing new is claimed).
 */
export function mayClaimExternalId(claim: {
  externalId: string;
  externalIdHash: string | undefined;
  current: string | undefined;
  bearerProjectId: string | undefined;
  projectId: string;
  verification: IdentityVerification;
}): boolean {
  if (claim.current === claim.externalId) return true;
  if (claim.bearerProjectId === claim.projectId) return true;
  return (
    claim.verification.enabled &&
    claim.externalIdHash !== undefined &&
    deviceProofMatches(claim.verification.secret, 'external_id', claim.externalId, claim.externalIdHash)
  );
}

/**
 * The values of a registration's `identifiers` it proves (pure): all of them
 * with the project's bearer key; with identity verification on, each whose
 * `identifier_hashes` entry (same name) is its proof (purpose `identifier`,
 * the proof a metadata write takes); none otherwise. Only proven values are
 * matched by a verified metadata write, so devices registering a user's id
 * without proof neither receive that user's writes nor block them.
 */
export function provenIdentifiers(claim: {
  identifiers: Record<string, string>;
  hashes: Record<string, string> | undefined;
  keyed: boolean;
  verification: IdentityVerification;
}): string[] {
  const values = Object.entries(claim.identifiers);
  if (claim.keyed) return [...new Set(values.map(([, value]) => value))];
  const { verification } = claim;
  if (!verification.enabled) return [];
  const proven = values.filter(([name, value]) => {
    const hash = claim.hashes?.[name];
    return hash !== undefined && deviceProofMatches(verification.secret, 'identifier', value, hash);
  });
  return [...new Set(proven.map(([, value]) => value))];
}
