import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import webpush from 'web-push';
import { buildWebPushPayload, webPushHeaders, webPushPlaintext, webPushTopic, type PushMessage } from '@herald/push-payloads';
import { classifyAddress, ipLiteral } from '@herald/address-policy';
import { createLimiter } from './concurrency.ts';
import type { DeviceResult } from './push-message.ts';
import { VapidHeaderCache, type VapidSigningKey } from './vapid-cache.ts';
import { webPushOutcome, type WebPushRawResult } from './webpush-outcome.ts';

/** A web device as the sender needs it: its subscription and the VAPID key it was made with. */
export interface WebPushTarget {
  device_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  key_id: string;
  /** This device's own message (a batch with per-device content; devices with the same content share one object); absent: the call's. */
  message?: PushMessage | undefined;
}

/** The project's VAPID keys (libs/admin WebPushCredential). */
export interface WebPushProjectKeys {
  subject: string;
  keys: readonly VapidSigningKey[];
}

export interface WebPushClientOptions {
  /** Requests in flight at once, over every push service. */
  maxInFlight: number;
  /** One request, from the connection to the answer. */
  timeoutMs: number;
  /** Local mode (WEBPUSH_LOCAL=on): loopback endpoints, and http ones, are called. */
  allowLoopback: boolean;
  /** CA to trust besides the system's (tests: the fake push service's). */
  ca?: string | undefined;
  now?: () => number;
}

export interface WebPushClient {
  /** `message`: every target's, unless the target carries its own (undefined: each does). */
  send(keys: WebPushProjectKeys, targets: readonly WebPushTarget[], message: PushMessage | undefined): Promise<DeviceResult[]>;
  readonly vapid: VapidHeaderCache;
  close(): void;
}

/** Reasons for answers Herald gives itself, without asking a push service. */
export const LOCAL_REASONS = { unknownKey: 'VapidKeyUnknown', refused: 'EndpointRefused', throttled: 'TooManyRequests' } as const;

/** Topic must be ≤ 32 base64url characters (RFC 8030 §5.4): a longer collapse_id is sent as its digest. */
function topicOf(collapseId: string): string {
  return webPushTopic(collapseId) ?? createHash('sha256').update(collapseId).digest('base64url').slice(0, 32);
}

/**
 * Resolves a push service's host and refuses it unless every address is
 * public, with webhooks' address rules (address-policy.ts): a subscription
 * names any URL the browser's page was given, so an endpoint must never
 * reach inside the network. The connection goes to the checked address.
 */
function checkedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) return callback(error, '', 0);
      const refused = addresses.find((entry) => !classifyAddress(entry.address, allowLoopback).allowed);
      if (refused !== undefined || addresses.length === 0) return callback(Object.assign(new Error(`${hostname} resolves to an address push services may not have`), { code: 'EADDRREFUSED' }), '', 0);
      if ((options as { all?: boolean }).all === true) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Sends Web Push messages (RFC 8030) to subscriptions: each plaintext is
 * encrypted to its subscription by web-push (aes128gcm, RFC 8291) and
 * authorised with the cached VAPID header of the key the subscription was
 * made with. A push service that answers 429 holds back its own origin
 * (only) until its Retry-After: messages for it are answered retryable
 * without being sent. Never retries itself: the sender does.
 */
export function createWebPushClient(options: WebPushClientOptions): WebPushClient {
  const now = options.now ?? Date.now;
  const vapid = new VapidHeaderCache(now);
  const limiter = createLimiter(options.maxInFlight, 'WEBPUSH_MAX_IN_FLIGHT');
  const lookup = checkedLookup(options.allowLoopback);
  const agents = {
    https: new HttpsAgent({ keepAlive: true, lookup, ...(options.ca === undefined ? {} : { ca: options.ca }) }),
    http: new HttpAgent({ keepAlive: true, lookup }),
  };
  const throttledUntil = new Map<string, number>();

  const post = (url: URL, headers: Record<string, string | number>, body: Buffer): Promise<WebPushRawResult> =>
    new Promise((resolve) => {
      const https = url.protocol === 'https:';
      if (!https && !options.allowLoopback) return resolve({ error: 'http endpoints are called only in local mode', status: undefined });
      const literal = ipLiteral(url.hostname);
      if (literal !== undefined && !classifyAddress(literal, options.allowLoopback).allowed) return resolve({ error: 'EADDRREFUSED' });
      const send = https ? httpsRequest : httpRequest;
      const request = send(url, { method: 'POST', headers, agent: https ? agents.https : agents.http, timeout: options.timeoutMs }, (response) => {
        response.resume();
        const retryAfter = response.headers['retry-after'];
        const location = response.headers.location;
        response.on('end', () => resolve({ status: response.statusCode, ...(retryAfter === undefined ? {} : { retryAfter }), ...(location === undefined ? {} : { location }) }));
        response.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
      });
      request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      request.end(body);
    });

  const sendOne = async (project: WebPushProjectKeys, target: WebPushTarget, plaintext: string, headers: Record<string, string>): Promise<DeviceResult> => {
    const key = project.keys.find((candidate) => candidate.id === target.key_id);
    // The project no longer has the key this subscription was made with: no push to it can ever be accepted.
    if (key === undefined) return { device_id: target.device_id, outcome: 'rejected', reason: LOCAL_REASONS.unknownKey };
    let url: URL;
    try {
      url = new URL(target.endpoint);
    } catch {
      return { device_id: target.device_id, outcome: 'token-invalid', reason: LOCAL_REASONS.refused };
    }
    const held = (throttledUntil.get(url.origin) ?? 0) - now();
    if (held > 0) return { device_id: target.device_id, outcome: 'retryable', reason: LOCAL_REASONS.throttled, retryAfterMs: held };
    const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, plaintext, {
      contentEncoding: 'aes128gcm',
      TTL: Number(headers.TTL),
      ...(headers.Urgency === undefined ? {} : { urgency: headers.Urgency as 'high' | 'normal' }),
      ...(headers.Topic === undefined ? {} : { topic: headers.Topic }),
      headers: { Authorization: vapid.header(url.origin, project.subject, key) },
    });
    const raw = await limiter.run(() => post(url, details.headers as Record<string, string | number>, details.body));
    if (raw.error === 'EADDRREFUSED') return { device_id: target.device_id, outcome: 'rejected', reason: LOCAL_REASONS.refused };
    const outcome = webPushOutcome(raw, now());
    if (raw.status === 429) throttledUntil.set(url.origin, now() + (outcome.retryAfterMs ?? 1000));
    return { device_id: target.device_id, ...outcome };
  };

  return {
    vapid,
    async send(project, targets, message) {
      // Once per message (per batch, or per content): the plaintext and headers are the same for every subscription; only the encryption differs.
      const built = new Map<PushMessage, { plaintext: string; headers: Record<string, string> }>();
      const builtOf = (own: PushMessage) => {
        let known = built.get(own);
        if (known === undefined) built.set(own, (known = { plaintext: webPushPlaintext(buildWebPushPayload(own)), headers: webPushHeaders(own, topicOf) }));
        return known;
      };
      return Promise.all(
        targets.map((target) => {
          const own = target.message ?? message;
          if (own === undefined) throw new Error(`web push target ${target.device_id} has no message`);
          const { plaintext, headers } = builtOf(own);
          return sendOne(project, target, plaintext, headers);
        }),
      );
    },
    close() {
      agents.https.destroy();
      agents.http.destroy();
    },
  };
}
