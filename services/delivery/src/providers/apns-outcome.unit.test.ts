import { describe, expect, it } from 'vitest';
import { apnsOutcome, apnsRawFromNodeApn, type NodeApnResult } from './apns-outcome.ts';
import type { ProviderOutcome } from './push-message.ts';

/** `Provider.send` results recorded from @parse/node-apn 8.1 against the fake APNs (connectionRetryLimit 0). */
const recorded: Array<[string, NodeApnResult, boolean, ProviderOutcome]> = [
  ['200', { device: 't', 'apns-id': 'f860927a-ae08-452c-8e71-694b1ae7b9ac' }, true, { outcome: 'delivered', providerMessageId: 'f860927a-ae08-452c-8e71-694b1ae7b9ac' }],
  [
    '410 Unregistered',
    { device: 't', 'apns-id': 'a', status: 410, response: { reason: 'Unregistered', timestamp: 1700000000000 } },
    false,
    { outcome: 'token-invalid', reason: 'Unregistered', providerTimestamp: '2023-11-14T22:13:20.000Z' },
  ],
  ['400 BadDeviceToken', { device: 't', status: 400, response: { reason: 'BadDeviceToken' } }, false, { outcome: 'token-invalid', reason: 'BadDeviceToken' }],
  ['410 ExpiredToken', { device: 't', status: 410, response: { reason: 'ExpiredToken' } }, false, { outcome: 'token-invalid', reason: 'ExpiredToken' }],
  ['400 DeviceTokenNotForTopic', { device: 't', status: 400, response: { reason: 'DeviceTokenNotForTopic' } }, false, { outcome: 'rejected', reason: 'DeviceTokenNotForTopic' }],
  ['429 TooManyRequests', { device: 't', status: 429, response: { reason: 'TooManyRequests' } }, false, { outcome: 'retryable', reason: 'TooManyRequests' }],
  ['500 (node-apn drops the body)', { device: 't', status: 500, error: { message: 'Error 500, stream ended unexpectedly' } }, false, { outcome: 'retryable', reason: 'InternalServerError' }],
  ['503 ServiceUnavailable', { device: 't', status: 503, response: { reason: 'ServiceUnavailable' } }, false, { outcome: 'retryable', reason: 'ServiceUnavailable' }],
  ['503 Shutdown', { device: 't', status: 503, response: { reason: 'Shutdown' } }, false, { outcome: 'retryable', reason: 'Shutdown' }],
  ['403 ExpiredProviderToken (error only)', { device: 't', status: 403, error: { message: 'ExpiredProviderToken' } }, false, { outcome: 'retryable', reason: 'ExpiredProviderToken' }],
  ['403 InvalidProviderToken', { device: 't', status: 403, response: { reason: 'InvalidProviderToken' } }, false, { outcome: 'rejected', reason: 'InvalidProviderToken' }],
  ['413 PayloadTooLarge', { device: 't', status: 413, response: { reason: 'PayloadTooLarge' } }, false, { outcome: 'rejected', reason: 'PayloadTooLarge' }],
  ['400 TopicDisallowed', { device: 't', status: 400, response: { reason: 'TopicDisallowed' } }, false, { outcome: 'rejected', reason: 'TopicDisallowed' }],
  ['timeout', { device: 't', error: { message: 'apn write timeout' } }, false, { outcome: 'retryable', reason: 'RequestTimeout' }],
  [
    'connection refused',
    { device: 't', error: { message: 'apn write failed: The pending stream has been canceled (caused by: connect ECONNREFUSED 127.0.0.1:45397)' } },
    false,
    { outcome: 'retryable', reason: 'ConnectionError' },
  ],
  ['unknown 5xx', { device: 't', status: 502, response: { reason: 'BadGateway' } }, false, { outcome: 'retryable', reason: 'BadGateway' }],
  ['unknown 4xx, no body', { device: 't', status: 418, error: { message: 'stream ended unexpectedly with status 418 and empty body' } }, false, { outcome: 'rejected', reason: 'HTTP 418' }],
];

describe('apnsOutcome', () => {
  it.each(recorded)('%s', (_name, result, sent, expected) => {
    expect(apnsOutcome(apnsRawFromNodeApn(result, sent))).toEqual(expected);
  });

  it('passes Retry-After on when a transport provides it', () => {
    expect(apnsOutcome({ status: 429, reason: 'TooManyRequests', retryAfter: '3' })).toEqual({ outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 3000 });
  });

  it('reads a 410 timestamp given as a string of ms, and drops one it cannot read', () => {
    expect(apnsOutcome({ status: 410, reason: 'Unregistered', timestamp: '1700000000000' }).providerTimestamp).toBe('2023-11-14T22:13:20.000Z');
    expect(apnsOutcome({ status: 410, reason: 'Unregistered', timestamp: 'yesterday' })).toEqual({ outcome: 'token-invalid', reason: 'Unregistered' });
  });

  it('does not attach a timestamp to BadDeviceToken', () => {
    expect(apnsOutcome({ status: 400, reason: 'BadDeviceToken', timestamp: 1700000000000 })).not.toHaveProperty('providerTimestamp');
  });

  /** node-apn's shape for an error Node raised: a VError whose `jse_cause` is Node's error. */
  const wrapped = (message: string, code: string) => Object.assign(new Error(`apn write failed: ${message}`), { jse_cause: Object.assign(new Error(message), { code }) });

  it('makes a request Node refused before sending it final, never retried', () => {
    // What Node's http2 does to a :path holding a space, tab, CR, LF, NUL or DEL: the stream closes with PROTOCOL_ERROR.
    const badPath = { device: 't', error: wrapped('Stream closed with error code NGHTTP2_PROTOCOL_ERROR', 'ERR_HTTP2_STREAM_ERROR') };
    expect(apnsOutcome(apnsRawFromNodeApn(badPath, false))).toEqual({ outcome: 'rejected', reason: 'InvalidRequest' });
    // A header value Node will not encode, thrown by session.request and spread onto node-apn's result.
    expect(apnsOutcome(apnsRawFromNodeApn({ device: 't', code: 'ERR_HTTP2_INVALID_HEADER_VALUE' }, false))).toEqual({ outcome: 'rejected', reason: 'InvalidRequest' });
  });

  it('still retries a stream the peer refused or cancelled', () => {
    const refused = { device: 't', error: wrapped('Stream closed with error code NGHTTP2_REFUSED_STREAM', 'ERR_HTTP2_STREAM_ERROR') };
    expect(apnsOutcome(apnsRawFromNodeApn(refused, false))).toEqual({ outcome: 'retryable', reason: 'ConnectionError' });
  });
});
