import { randomBytes } from 'node:crypto';
import { decodeJwt, verifyJwtSignature } from './jwt.ts';
import type { RuleBook, TokenRuleBase } from './rules.ts';

/**
 * Request checks of the fake FCM and its OAuth token endpoint, after:
 * - FCM HTTP v1 send: https://firebase.google.com/docs/reference/fcm/rest/v1/projects.messages/send
 * - FCM error codes: https://firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode
 * - Google's JWT-bearer grant for service accounts:
 *   https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 */

/** A service account the fake's token endpoint knows: Google holds the public key. */
export interface FcmAccountRegistration {
  clientEmail: string;
  projectId: string;
  publicKeyPem: string;
}

export type FcmErrorCode = 'UNREGISTERED' | 'INVALID_ARGUMENT' | 'SENDER_ID_MISMATCH' | 'QUOTA_EXCEEDED' | 'UNAVAILABLE' | 'INTERNAL' | 'THIRD_PARTY_AUTH_ERROR';

/** Injected failure, e.g. `{ prefix: 'gone-', errorCode: 'UNREGISTERED' }`. */
export interface FcmRule extends TokenRuleBase {
  errorCode: FcmErrorCode;
  /** Overrides the HTTP status Google uses for the code. */
  status?: number;
  message?: string;
}

export interface IssuedAccessToken {
  clientEmail: string;
  projectId: string;
  expiresAt: number;
}

/** HTTP status, canonical status and message Google sends with each FCM error code. */
const FCM_ERRORS: Record<FcmErrorCode, { status: number; canonical: string; message: string }> = {
  UNREGISTERED: { status: 404, canonical: 'NOT_FOUND', message: 'Requested entity was not found.' },
  INVALID_ARGUMENT: { status: 400, canonical: 'INVALID_ARGUMENT', message: 'The registration token is not a valid FCM registration token' },
  SENDER_ID_MISMATCH: { status: 403, canonical: 'PERMISSION_DENIED', message: 'SenderId mismatch' },
  QUOTA_EXCEEDED: { status: 429, canonical: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for sending messages.' },
  UNAVAILABLE: { status: 503, canonical: 'UNAVAILABLE', message: 'The service is currently unavailable.' },
  INTERNAL: { status: 500, canonical: 'INTERNAL', message: 'Internal error encountered.' },
  THIRD_PARTY_AUTH_ERROR: { status: 401, canonical: 'UNAUTHENTICATED', message: 'Auth error from APNS or Web Push Service' },
};

const FCM_ERROR_TYPE = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_AUDIENCES = new Set(['https://oauth2.googleapis.com/token', 'https://www.googleapis.com/oauth2/v4/token', 'https://accounts.google.com/o/oauth2/token']);
const FCM_SCOPES = ['https://www.googleapis.com/auth/firebase.messaging', 'https://www.googleapis.com/auth/cloud-platform'];
/** FCM: "The maximum payload for both message types is 4096 bytes". Counted here as the message JSON without its target. */
export const FCM_MAX_PAYLOAD_BYTES = 4096;

export function googleError(status: number, canonical: string, message: string, errorCode?: string): { error: Record<string, unknown> } {
  return {
    error: { code: status, message, status: canonical, ...(errorCode === undefined ? {} : { details: [{ '@type': FCM_ERROR_TYPE, errorCode }] }) },
  };
}

export type TokenAnswer =
  | { kind: 'issued'; accessToken: string; grant: IssuedAccessToken; body: { access_token: string; expires_in: number; token_type: 'Bearer' } }
  | { kind: 'refused'; status: number; body: { error: string; error_description: string } };

function refuse(error: string, description: string, status = 400): TokenAnswer {
  return { kind: 'refused', status, body: { error, error_description: description } };
}

/** `POST /token`: verifies the assertion JWT with the account's public key, like Google's token endpoint. */
export function checkTokenRequest(body: string, context: { accounts: ReadonlyMap<string, FcmAccountRegistration>; now: number; ttlSeconds: number }): TokenAnswer {
  const form = new URLSearchParams(body);
  if (form.get('grant_type') !== JWT_BEARER) return refuse('unsupported_grant_type', 'Invalid grant_type: ' + (form.get('grant_type') ?? ''));
  const jwt = decodeJwt(form.get('assertion') ?? '');
  if (jwt === undefined) return refuse('invalid_grant', 'Invalid JWT: Malformed.');
  const { iss, aud, scope, iat, exp } = jwt.payload;
  const account = typeof iss === 'string' ? context.accounts.get(iss) : undefined;
  if (account === undefined) return refuse('invalid_grant', 'Invalid grant: account not found');
  if (!verifyJwtSignature(jwt, 'RS256', account.publicKeyPem)) return refuse('invalid_grant', 'Invalid JWT Signature.');
  const nowSeconds = context.now / 1000;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > 3600 || exp < nowSeconds || iat > nowSeconds + 300) {
    return refuse('invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
  }
  if (typeof aud !== 'string' || !TOKEN_AUDIENCES.has(aud)) return refuse('invalid_grant', 'Invalid JWT: Failed audience check.');
  const scopes = typeof scope === 'string' ? scope.split(' ') : [];
  if (!FCM_SCOPES.some((wanted) => scopes.includes(wanted))) return refuse('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  const accessToken = `ya29.fake-${randomBytes(24).toString('base64url')}`;
  return {
    kind: 'issued',
    accessToken,
    grant: { clientEmail: account.clientEmail, projectId: account.projectId, expiresAt: context.now + context.ttlSeconds * 1000 },
    body: { access_token: accessToken, expires_in: context.ttlSeconds, token_type: 'Bearer' },
  };
}

export interface FcmSendView {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Buffer;
}

export type FcmAnswer =
  | { kind: 'accepted'; projectId: string; name: string; token: string; message: Record<string, unknown> }
  | { kind: 'rejected'; status: number; reason: string; body: unknown; retryAfterSeconds?: number };

function reject(status: number, canonical: string, message: string, errorCode?: string): Extract<FcmAnswer, { kind: 'rejected' }> {
  return { kind: 'rejected', status, reason: errorCode ?? canonical, body: googleError(status, canonical, message, errorCode) };
}

function parseMessage(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'object' && parsed.message !== null ? (parsed.message as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `POST /v1/projects/<p>/messages:send` with a token this fake issued. */
export function checkSendRequest(
  request: FcmSendView,
  context: { tokens: ReadonlyMap<string, IssuedAccessToken>; rules: RuleBook<FcmRule>; now: number },
): FcmAnswer {
  const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(request.path);
  if (request.method !== 'POST' || match?.[1] === undefined) return reject(404, 'NOT_FOUND', 'Not found');
  const projectId = decodeURIComponent(match[1]);
  const bearer = /^Bearer (.+)$/i.exec(request.authorization ?? '')?.[1];
  const grant = bearer === undefined ? undefined : context.tokens.get(bearer);
  if (grant === undefined || grant.expiresAt <= context.now) {
    return reject(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
  }
  if (grant.projectId !== projectId) {
    return reject(403, 'PERMISSION_DENIED', `Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/${projectId}' (or it may not exist).`);
  }
  const message = parseMessage(request.body);
  if (message === undefined) return reject(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', 'INVALID_ARGUMENT');
  const { token, ...content } = message;
  if (typeof token !== 'string' || token === '') return reject(400, 'INVALID_ARGUMENT', 'Recipient of the message is not set.', 'INVALID_ARGUMENT');
  const data = content.data;
  if (data !== undefined && (typeof data !== 'object' || data === null || Object.values(data).some((value) => typeof value !== 'string'))) {
    return reject(400, 'INVALID_ARGUMENT', "Invalid value at 'message.data' (TYPE_STRING)", 'INVALID_ARGUMENT');
  }
  if (Buffer.byteLength(JSON.stringify(content)) > FCM_MAX_PAYLOAD_BYTES) return reject(400, 'INVALID_ARGUMENT', 'Message is too big', 'INVALID_ARGUMENT');

  const rule = context.rules.take(token);
  if (rule !== undefined) {
    const known = FCM_ERRORS[rule.errorCode];
    const answer = reject(rule.status ?? known.status, known.canonical, rule.message ?? known.message, rule.errorCode);
    return rule.retryAfterSeconds === undefined ? answer : { ...answer, retryAfterSeconds: rule.retryAfterSeconds };
  }
  return { kind: 'accepted', projectId, name: `projects/${projectId}/messages/0:${context.now}${randomBytes(8).toString('hex')}`, token, message };
}
