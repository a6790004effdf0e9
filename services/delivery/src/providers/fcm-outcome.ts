import type { FirebaseError } from 'firebase-admin/app';
import type { SendResponse } from 'firebase-admin/messaging';
import { parseRetryAfter, type ProviderOutcome } from './push-message.ts';

/**
 * One FCM answer as firebase-admin reported it, flattened. Google's codes:
 * https://firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode
 * and their response shapes: https://firebase.google.com/docs/cloud-messaging/error-codes
 * firebase-admin's `messaging/…` codes are its mapping of those (lib/messaging/error.js).
 */
export type FcmRawResult =
  | { success: true; messageId?: string | undefined }
  | {
      success: false;
      /** firebase-admin's code: `messaging/registration-token-not-registered`, `app/network-error`, … */
      code: string;
      message?: string | undefined;
      httpStatus?: number | undefined;
      /** `errorCode` of the `google.firebase.fcm.v1.FcmError` detail: `UNREGISTERED`, `QUOTA_EXCEEDED`, … */
      fcmErrorCode?: string | undefined;
      /** The canonical `error.status`: `NOT_FOUND`, `RESOURCE_EXHAUSTED`, … */
      googleStatus?: string | undefined;
      /** `field`s of a `google.rpc.BadRequest` detail, e.g. `message.token`. */
      fieldViolations?: readonly string[] | undefined;
      retryAfter?: string | undefined;
    };

type Failure = Extract<FcmRawResult, { success: false }>;

function readGoogleError(data: unknown): Pick<Failure, 'fcmErrorCode' | 'googleStatus' | 'fieldViolations'> {
  const error = (data as { error?: { status?: unknown; details?: unknown } } | undefined)?.error;
  if (typeof error !== 'object' || error === null) return {};
  const details = Array.isArray(error.details) ? (error.details as Array<Record<string, unknown>>) : [];
  const fcm = details.find((detail) => detail['@type'] === 'type.googleapis.com/google.firebase.fcm.v1.FcmError');
  const violations = details
    .filter((detail) => detail['@type'] === 'type.googleapis.com/google.rpc.BadRequest' && Array.isArray(detail.fieldViolations))
    .flatMap((detail) => (detail.fieldViolations as Array<{ field?: unknown }>).map((violation) => String(violation.field)));
  return {
    ...(typeof fcm?.errorCode === 'string' ? { fcmErrorCode: fcm.errorCode } : {}),
    ...(typeof error.status === 'string' ? { googleStatus: error.status } : {}),
    ...(violations.length > 0 ? { fieldViolations: violations } : {}),
  };
}

/** Flattens a firebase-admin error (v14 keeps the HTTP response on it) for fcm-outcome. */
export function fcmRawFromError(error: unknown): FcmRawResult {
  const firebase = error as Partial<FirebaseError> | undefined;
  const response = firebase?.httpResponse;
  const retryAfter: unknown = response?.headers['retry-after'];
  return {
    success: false,
    code: typeof firebase?.code === 'string' ? firebase.code : 'unknown',
    message: typeof firebase?.message === 'string' ? firebase.message : String(error),
    ...(response === undefined ? {} : { httpStatus: response.status, ...readGoogleError(response.data) }),
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  };
}

export function fcmRawFromResponse(response: SendResponse): FcmRawResult {
  return response.success ? { success: true, messageId: response.messageId } : fcmRawFromError(response.error);
}

type Kind = ProviderOutcome['outcome'];

/**
 * Google's codes. Token-invalid are the two that Firebase's token guide says to
 * drop tokens for (https://firebase.google.com/docs/cloud-messaging/manage-tokens#detect-invalid-token-responses-from-the-fcm-backend):
 * UNREGISTERED, and INVALID_ARGUMENT when it is about the token (decided below).
 * SENDER_ID_MISMATCH is not: it also means this project's credential is wrong,
 * and deactivating would then wipe every Android device of the project.
 */
const BY_FCM_CODE: Record<string, Kind | 'token-if-about-token'> = {
  UNREGISTERED: 'token-invalid',
  INVALID_ARGUMENT: 'token-if-about-token',
  SENDER_ID_MISMATCH: 'rejected',
  THIRD_PARTY_AUTH_ERROR: 'rejected',
  APNS_AUTH_ERROR: 'rejected',
  QUOTA_EXCEEDED: 'retryable',
  UNAVAILABLE: 'retryable',
  INTERNAL: 'retryable',
};

/** firebase-admin's codes, for errors that carry no FCM error code (older responses, client-side and network errors). */
const BY_ADMIN_CODE: Record<string, Kind | 'token-if-about-token'> = {
  'messaging/registration-token-not-registered': 'token-invalid',
  'messaging/invalid-registration-token': 'token-invalid',
  'messaging/invalid-argument': 'token-if-about-token',
  'messaging/mismatched-credential': 'rejected',
  'messaging/third-party-auth-error': 'rejected',
  'messaging/authentication-error': 'rejected',
  'messaging/invalid-payload': 'rejected',
  'messaging/invalid-data-payload-key': 'rejected',
  'messaging/payload-size-limit-exceeded': 'rejected',
  'messaging/invalid-options': 'rejected',
  'messaging/invalid-package-name': 'rejected',
  'messaging/invalid-recipient': 'rejected',
  'messaging/message-rate-exceeded': 'retryable',
  'messaging/device-message-rate-exceeded': 'retryable',
  'messaging/topics-message-rate-exceeded': 'retryable',
  'messaging/server-unavailable': 'retryable',
  'messaging/internal-error': 'retryable',
  // firebase-admin reports HTTP/2 session failures (GOAWAY, resets) as unknown-error.
  'messaging/unknown-error': 'retryable',
  'app/network-error': 'retryable',
  'app/network-timeout': 'retryable',
};

/** Google's OAuth errors that mean the service account itself is refused (not that the token server is down). */
const CREDENTIAL_REFUSED = /invalid_grant|invalid_client|unauthorized_client|invalid_scope|account not found/i;

/**
 * INVALID_ARGUMENT covers any bad field. It is about the token when a
 * BadRequest detail names `message.token`, or, as Google usually answers
 * without details, when the message says "registration token".
 */
function aboutToken(failure: Failure): boolean {
  if (failure.fieldViolations?.some((field) => field === 'message.token')) return true;
  return /registration token/i.test(failure.message ?? '');
}

function classify(failure: Failure): Kind {
  const byCode = (failure.fcmErrorCode === undefined ? undefined : BY_FCM_CODE[failure.fcmErrorCode]) ?? BY_ADMIN_CODE[failure.code];
  if (byCode === 'token-if-about-token') return aboutToken(failure) ? 'token-invalid' : 'rejected';
  if (byCode !== undefined) return byCode;
  // The OAuth exchange failed: firebase-admin says app/invalid-credential both for a refused key and an unreachable token server.
  if (failure.code === 'app/invalid-credential') return CREDENTIAL_REFUSED.test(failure.message ?? '') ? 'rejected' : 'retryable';
  const status = failure.httpStatus;
  if (status === undefined) return 'retryable';
  return status >= 500 || status === 429 ? 'retryable' : 'rejected';
}

export function fcmOutcome(raw: FcmRawResult, now: number = Date.now()): ProviderOutcome {
  if (raw.success) return { outcome: 'delivered', ...(raw.messageId === undefined ? {} : { providerMessageId: raw.messageId }) };
  const outcome = classify(raw);
  const reason = raw.fcmErrorCode ?? raw.googleStatus ?? raw.code;
  if (outcome !== 'retryable') return { outcome, reason };
  const retryAfterMs = parseRetryAfter(raw.retryAfter, now);
  return { outcome, reason, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}
