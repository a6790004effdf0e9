import { createPrivateKey, type KeyObject } from 'node:crypto';
import { ValidationError } from '@herald/errors';
import type { HmsSummary } from './hms-credential.ts';

/** A project's APNs token-auth credential (the delivery service's ApnsCredential has this shape). */
export interface ApnsCredential {
  /** PKCS#8 PEM, the contents of Apple's `AuthKey_<keyId>.p8`. */
  keyPem: string;
  keyId: string;
  teamId: string;
  /** The app's bundle id, sent as `apns-topic`. */
  bundleId: string;
  /** Development builds register with the sandbox environment. */
  sandbox: boolean;
}

/** A project's FCM credential: a Google service-account key file, kept whole (firebase-admin reads more than the required fields). */
export interface FcmCredential {
  serviceAccount: { project_id: string; client_email: string; private_key: string; [k: string]: unknown };
}

export type ProviderName = 'apns' | 'fcm' | 'hms';

/** What may be shown about credentials: identifiers, never key material. */
export interface ApnsSummary {
  keyId: string;
  teamId: string;
  bundleId: string;
  sandbox: boolean;
}

export interface FcmSummary {
  project_id: string;
  client_email: string;
}

export interface CredentialsDescription {
  apns?: ApnsSummary & { set_at: Date };
  fcm?: FcmSummary & { set_at: Date };
  hms?: HmsSummary & { set_at: Date };
}

/** How problems name each field: the caller's words (CLI flags) or the field names. */
export type ApnsLabels = Record<keyof ApnsCredential, string>;

const APNS_FIELDS: ApnsLabels = { keyPem: 'keyPem', keyId: 'keyId', teamId: 'teamId', bundleId: 'bundleId', sandbox: 'sandbox' };

/** Apple key ids and team ids are 10 upper-case alphanumerics (developer.apple.com → Certificates, Identifiers & Profiles → Keys / Membership). */
const APPLE_ID = /^[A-Z0-9]{10}$/;
/** Bundle ids: alphanumerics, hyphens and periods, reverse-DNS (https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleidentifier). */
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const MAX_BUNDLE_ID = 255;

/** The private key in a PEM string, or undefined when it is not one (encrypted, public, a certificate, junk). */
function privateKey(pem: string): KeyObject | undefined {
  // Only PEM text: a KeyObject is never built from anything that could be read as a path or DER.
  if (!pem.includes('-----BEGIN')) return undefined;
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every problem with an APNs credential, each naming the field (as labelled) and the rule; empty when valid. */
export function apnsCredentialProblems(input: Partial<Record<keyof ApnsCredential, unknown>>, labels: ApnsLabels = APNS_FIELDS): string[] {
  const problems: string[] = [];
  const { keyPem, keyId, teamId, bundleId, sandbox } = input;
  if (typeof keyPem !== 'string' || keyPem.trim() === '') problems.push(`${labels.keyPem} is required: the AuthKey .p8 private key (PEM)`);
  else {
    const key = privateKey(keyPem);
    // APNs provider tokens are ES256: only a P-256 key can sign them (https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns).
    if (key === undefined) problems.push(`${labels.keyPem} must be an unencrypted PEM private key (an AuthKey .p8 file)`);
    else if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      problems.push(`${labels.keyPem} must be an EC P-256 (prime256v1) private key, as in an AuthKey .p8 file`);
    }
  }
  for (const [field, value, appleName] of [['keyId', keyId, 'Key ID'], ['teamId', teamId, 'Team ID']] as const) {
    if (typeof value !== 'string' || !APPLE_ID.test(value)) problems.push(`${labels[field]} must be 10 upper-case letters or digits (Apple's ${appleName})`);
  }
  if (typeof bundleId !== 'string' || bundleId === '') problems.push(`${labels.bundleId} is required: the app's bundle id (apns-topic)`);
  else if (bundleId.length > MAX_BUNDLE_ID || !BUNDLE_ID.test(bundleId)) {
    problems.push(`${labels.bundleId} must be a reverse-DNS bundle id of letters, digits, hyphens and periods (e.g. com.example.app)`);
  }
  if (sandbox !== undefined && typeof sandbox !== 'boolean') problems.push(`${labels.sandbox} must be a boolean`);
  return problems;
}

/** A valid APNs credential, or a ValidationError listing every problem. `sandbox` defaults to false. */
export function validateApnsCredential(input: Partial<Record<keyof ApnsCredential, unknown>>, labels: ApnsLabels = APNS_FIELDS): ApnsCredential {
  const problems = apnsCredentialProblems(input, labels);
  if (problems.length > 0) throw new ValidationError(problems);
  return {
    keyPem: input.keyPem as string,
    keyId: input.keyId as string,
    teamId: input.teamId as string,
    bundleId: input.bundleId as string,
    sandbox: input.sandbox === true,
  };
}

/** Every problem with a service-account key file's JSON, each prefixed with `label`; empty when valid. */
export function fcmServiceAccountProblems(json: unknown, label = 'service account'): string[] {
  if (!isRecord(json)) return [`${label} must be a JSON object (a Google service-account key file)`];
  const problems: string[] = [];
  // Other Google credential files (authorized_user, external_account) cannot mint FCM tokens for a project.
  if (json.type !== 'service_account') problems.push(`${label} type must be "service_account"`);
  for (const field of ['project_id', 'client_email'] as const) {
    if (typeof json[field] !== 'string' || json[field] === '') problems.push(`${label} ${field} is required and must be a non-empty string`);
  }
  if (typeof json.client_email === 'string' && json.client_email !== '' && !json.client_email.includes('@')) {
    problems.push(`${label} client_email must be an email address`);
  }
  if (typeof json.private_key !== 'string' || json.private_key === '') problems.push(`${label} private_key is required and must be a non-empty string`);
  else {
    // Google signs service-account assertions with RS256 (https://developers.google.com/identity/protocols/oauth2/service-account).
    const key = privateKey(json.private_key);
    if (key === undefined) problems.push(`${label} private_key must be an unencrypted PEM private key`);
    else if (key.asymmetricKeyType !== 'rsa') problems.push(`${label} private_key must be an RSA private key`);
  }
  return problems;
}

/** A valid FCM credential (every field of the file kept), or a ValidationError listing every problem. */
export function validateFcmServiceAccount(json: unknown, label = 'service account'): FcmCredential {
  const problems = fcmServiceAccountProblems(json, label);
  if (problems.length > 0) throw new ValidationError(problems);
  return { serviceAccount: { ...(json as FcmCredential['serviceAccount']) } };
}

export function summarizeApns(credential: ApnsCredential): ApnsSummary {
  return { keyId: credential.keyId, teamId: credential.teamId, bundleId: credential.bundleId, sandbox: credential.sandbox };
}

export function summarizeFcm(credential: FcmCredential): FcmSummary {
  return { project_id: credential.serviceAccount.project_id, client_email: credential.serviceAccount.client_email };
}

/**
 * A secrets-free description of stored credentials. Fields are picked one by
 * one, so nothing else in a stored record can ever reach the output.
 */
export function describeCredentials(stored: {
  apns?: { summary: ApnsSummary; set_at: Date } | undefined;
  fcm?: { summary: FcmSummary; set_at: Date } | undefined;
  hms?: { summary: HmsSummary; set_at: Date } | undefined;
}): CredentialsDescription {
  const description: CredentialsDescription = {};
  if (stored.apns !== undefined) {
    const { keyId, teamId, bundleId, sandbox } = stored.apns.summary;
    description.apns = { keyId, teamId, bundleId, sandbox, set_at: stored.apns.set_at };
  }
  if (stored.fcm !== undefined) {
    const { project_id, client_email } = stored.fcm.summary;
    description.fcm = { project_id, client_email, set_at: stored.fcm.set_at };
  }
  if (stored.hms !== undefined) {
    const { app_id, client_id } = stored.hms.summary;
    description.hms = { app_id, client_id, set_at: stored.hms.set_at };
  }
  return description;
}

/** `herald providers show` as text: one line per provider. */
export function formatCredentialsDescription(projectId: string, description: CredentialsDescription): string[] {
  const { apns, fcm, hms } = description;
  return [
    `project ${projectId}`,
    apns === undefined
      ? '  apns: not configured'
      : `  apns: key ${apns.keyId}, team ${apns.teamId}, topic ${apns.bundleId}, ${apns.sandbox ? 'sandbox' : 'production'}; set ${apns.set_at.toISOString()}`,
    fcm === undefined ? '  fcm:  not configured' : `  fcm:  project ${fcm.project_id}, ${fcm.client_email}; set ${fcm.set_at.toISOString()}`,
    hms === undefined ? '  hms:  not configured' : `  hms:  app ${hms.app_id}, client ${hms.client_id}; set ${hms.set_at.toISOString()}`,
  ];
}
