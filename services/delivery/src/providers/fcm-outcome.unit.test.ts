import { describe, expect, it } from 'vitest';
import { fcmOutcome, fcmRawFromError, type FcmRawResult } from './fcm-outcome.ts';
import type { ProviderOutcome } from './push-message.ts';

const NOW = Date.parse('2025-01-01T00:00:00Z');

/** firebase-admin 14.5 `sendEach` results against the fake FCM, flattened by `fcmRawFromError`. */
const recorded: Array<[string, FcmRawResult, ProviderOutcome]> = [
  ['delivered', { success: true, messageId: 'projects/p/messages/0:1' }, { outcome: 'delivered', providerMessageId: 'projects/p/messages/0:1' }],
  [
    'UNREGISTERED',
    { success: false, code: 'messaging/registration-token-not-registered', message: 'Requested entity was not found.', httpStatus: 404, fcmErrorCode: 'UNREGISTERED', googleStatus: 'NOT_FOUND' },
    { outcome: 'token-invalid', reason: 'UNREGISTERED' },
  ],
  [
    'INVALID_ARGUMENT on the token',
    { success: false, code: 'messaging/invalid-argument', message: 'The registration token is not a valid FCM registration token', httpStatus: 400, fcmErrorCode: 'INVALID_ARGUMENT', googleStatus: 'INVALID_ARGUMENT' },
    { outcome: 'token-invalid', reason: 'INVALID_ARGUMENT' },
  ],
  [
    'INVALID_ARGUMENT on the payload',
    { success: false, code: 'messaging/invalid-argument', message: 'Message is too big', httpStatus: 400, fcmErrorCode: 'INVALID_ARGUMENT', googleStatus: 'INVALID_ARGUMENT' },
    { outcome: 'rejected', reason: 'INVALID_ARGUMENT' },
  ],
  [
    'INVALID_ARGUMENT with a BadRequest detail naming message.token',
    { success: false, code: 'messaging/invalid-argument', message: 'Invalid value', httpStatus: 400, googleStatus: 'INVALID_ARGUMENT', fieldViolations: ['message.token'] },
    { outcome: 'token-invalid', reason: 'INVALID_ARGUMENT' },
  ],
  [
    'INVALID_ARGUMENT with a BadRequest detail naming data',
    { success: false, code: 'messaging/invalid-argument', message: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12", httpStatus: 400, googleStatus: 'INVALID_ARGUMENT', fieldViolations: ['message.data[0].value'] },
    { outcome: 'rejected', reason: 'INVALID_ARGUMENT' },
  ],
  [
    'SENDER_ID_MISMATCH',
    { success: false, code: 'messaging/mismatched-credential', message: 'SenderId mismatch', httpStatus: 403, fcmErrorCode: 'SENDER_ID_MISMATCH', googleStatus: 'PERMISSION_DENIED' },
    { outcome: 'rejected', reason: 'SENDER_ID_MISMATCH' },
  ],
  [
    'QUOTA_EXCEEDED with Retry-After',
    { success: false, code: 'messaging/message-rate-exceeded', message: 'Quota exceeded for sending messages.', httpStatus: 429, fcmErrorCode: 'QUOTA_EXCEEDED', googleStatus: 'RESOURCE_EXHAUSTED', retryAfter: '12' },
    { outcome: 'retryable', reason: 'QUOTA_EXCEEDED', retryAfterMs: 12_000 },
  ],
  [
    'UNAVAILABLE (after firebase-admin retried it 4 times)',
    { success: false, code: 'messaging/server-unavailable', message: 'The service is currently unavailable.', httpStatus: 503, fcmErrorCode: 'UNAVAILABLE', googleStatus: 'UNAVAILABLE', retryAfter: '0' },
    { outcome: 'retryable', reason: 'UNAVAILABLE', retryAfterMs: 0 },
  ],
  [
    'INTERNAL',
    { success: false, code: 'messaging/internal-error', message: 'Internal error encountered.', httpStatus: 500, fcmErrorCode: 'INTERNAL', googleStatus: 'INTERNAL' },
    { outcome: 'retryable', reason: 'INTERNAL' },
  ],
  [
    'THIRD_PARTY_AUTH_ERROR',
    { success: false, code: 'messaging/third-party-auth-error', message: 'Auth error from APNS or Web Push Service', httpStatus: 401, fcmErrorCode: 'THIRD_PARTY_AUTH_ERROR', googleStatus: 'UNAUTHENTICATED' },
    { outcome: 'rejected', reason: 'THIRD_PARTY_AUTH_ERROR' },
  ],
  [
    'refused service account (OAuth invalid_grant)',
    {
      success: false,
      code: 'app/invalid-credential',
      message: 'Credential implementation provided to initializeApp() via the "credential" property failed to fetch a valid Google OAuth2 access token with the following error: "invalid_grant: Invalid JWT Signature.".',
    },
    { outcome: 'rejected', reason: 'app/invalid-credential' },
  ],
  [
    'token server unreachable',
    { success: false, code: 'app/invalid-credential', message: 'failed to fetch a valid Google OAuth2 access token with the following error: "connect ECONNREFUSED 127.0.0.1:1".' },
    { outcome: 'retryable', reason: 'app/invalid-credential' },
  ],
  [
    'HTTP/2 session failure',
    { success: false, code: 'messaging/unknown-error', message: 'Error while making request: The pending stream has been canceled (caused by: connect ECONNREFUSED 127.0.0.1:44645).' },
    { outcome: 'retryable', reason: 'messaging/unknown-error' },
  ],
  ['legacy code without details', { success: false, code: 'messaging/registration-token-not-registered', httpStatus: 404 }, { outcome: 'token-invalid', reason: 'messaging/registration-token-not-registered' }],
  ['unknown code, 5xx', { success: false, code: 'messaging/something-new', httpStatus: 502 }, { outcome: 'retryable', reason: 'messaging/something-new' }],
  ['unknown code, 4xx', { success: false, code: 'messaging/something-new', httpStatus: 400 }, { outcome: 'rejected', reason: 'messaging/something-new' }],
];

describe('fcmOutcome', () => {
  it.each(recorded)('%s', (_name, raw, expected) => {
    expect(fcmOutcome(raw, NOW)).toEqual(expected);
  });
});

describe('fcmRawFromError', () => {
  it('reads the FCM error code, canonical status, field violations and Retry-After from the kept HTTP response', () => {
    const error = {
      code: 'messaging/invalid-argument',
      message: 'Invalid value',
      httpResponse: {
        status: 400,
        headers: { 'retry-after': '5' },
        data: {
          error: {
            code: 400,
            status: 'INVALID_ARGUMENT',
            details: [
              { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' },
              { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: 'bad' }] },
            ],
          },
        },
      },
    };
    expect(fcmRawFromError(error)).toEqual({
      success: false,
      code: 'messaging/invalid-argument',
      message: 'Invalid value',
      httpStatus: 400,
      fcmErrorCode: 'INVALID_ARGUMENT',
      googleStatus: 'INVALID_ARGUMENT',
      fieldViolations: ['message.token'],
      retryAfter: '5',
    });
  });

  it('copes with errors that are not firebase errors', () => {
    expect(fcmRawFromError(new Error('boom'))).toEqual({ success: false, code: 'unknown', message: 'boom' });
  });
});
