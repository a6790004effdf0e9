import { createPrivateKey } from 'node:crypto';
import apn from '@parse/node-apn';
import type { ApnsCredential } from '@herald/admin';
import { AppError, ConfigError } from '@herald/errors';
import { once } from 'node:events';
import type { ClientHttp2Session } from 'node:http2';
import { setTimeout as delay } from 'node:timers/promises';
import { apnsOutcome, apnsRawFromNodeApn } from './apns-outcome.ts';
import { liveActivityTopic, type ApnsRequest, type LiveActivityRequest } from '@herald/push-payloads';
import { createLimiter } from './concurrency.ts';
import { parseEndpoint } from './endpoint.ts';
import type { DeviceResult, DeviceTarget } from './push-message.ts';

export type { ApnsCredential } from '@herald/admin';

export interface ApnsClientOptions {
  credential: ApnsCredential;
  /** Base URL overriding Apple's host (APNS_ENDPOINT), e.g. a fake: `https://127.0.0.1:8443`. */
  endpoint?: string | undefined;
  /** Extra trusted CAs (tests). Processes use NODE_EXTRA_CA_CERTS instead; TLS is always verified. */
  ca?: string | readonly string[] | undefined;
  /** Requests in flight at once for this credential (default 100). */
  maxInFlight?: number;
  /** Per request (default 5000 ms, node-apn's default). */
  requestTimeoutMs?: number;
  /** Longest wait for the HTTP/2 session to close on `close()` (default 1000 ms). */
  closeTimeoutMs?: number;
}

export interface ApnsClient {
  /**
   * One result per device, in input order. Never throws for provider answers. `urgent` (express lane): its requests take the next free slots, ahead of waiting campaign requests.
   * `request` is the same for every device, or a device's own (per-device content: devices with the same content get the same request object).
   */
  send(devices: readonly DeviceTarget[], request: ApnsRequest | ((device: DeviceTarget) => ApnsRequest), urgent?: boolean): Promise<DeviceResult[]>;
  /** A Live Activity push to activity tokens (`token` of each target), on the same connection: topic `<bundle id>.push-type.liveactivity`. */
  sendLiveActivity(devices: readonly DeviceTarget[], request: LiveActivityRequest, urgent?: boolean): Promise<DeviceResult[]>;
  close(): Promise<void>;
}

function checkCredential(credential: ApnsCredential): void {
  const problems: string[] = [];
  // node-apn treats a string without a PEM header as a file path and reads it: never let a credential do that.
  if (!credential.keyPem.includes('-----BEGIN')) problems.push('APNs keyPem must be a PEM private key');
  else {
    try {
      // Apple's token signing keys are P-256 EC keys; anything else cannot sign the ES256 provider token.
      const details = createPrivateKey(credential.keyPem).asymmetricKeyDetails;
      if (details?.namedCurve !== 'prime256v1') problems.push('APNs keyPem must be an EC P-256 key (an AuthKey .p8 file)');
    } catch {
      problems.push('APNs keyPem is not a readable private key');
    }
  }
  for (const field of ['keyId', 'teamId', 'bundleId'] as const) if (credential[field] === '') problems.push(`APNs ${field} must not be empty`);
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The part of node-apn's (untyped) client that ends its HTTP/2 sessions. */
interface NodeApnClient {
  closeAndDestroySession(session: ClientHttp2Session | null | undefined): Promise<void>;
}

/**
 * node-apn (8.1) ends its session after a 500 answer or a GOAWAY: it closes
 * it (no new streams, those in flight finish), then destroys it. But a second
 * caller while that close is under way (two 500s in a row) destroyed the
 * session at once, resetting every request in flight on it: those pushes
 * failed as ConnectionError although APNs had taken many of them, so the
 * sender sent them again (one 500 among 1,000 pushes in flight cost 225–496
 * resets and up to 14 repeats in `apns-client.int.test.ts`). Here every
 * caller waits for the graceful close: a session is destroyed only once its
 * streams have ended.
 */
function closeSessionsGracefully(provider: apn.Provider, requestTimeoutMs: number): void {
  const client = (provider as unknown as { client: NodeApnClient }).client;
  client.closeAndDestroySession = async (session) => {
    if (session === null || session === undefined || session.destroyed) return;
    // Settles, never rejects: node-apn calls this from event handlers without awaiting it.
    const closed = once(session, 'close').then(
      () => undefined,
      () => undefined,
    );
    if (!session.closed) session.close();
    // Every stream ends by its request timeout; past that (and a margin), end the session anyway.
    const late = AbortSignal.timeout(requestTimeoutMs + 1_000);
    await Promise.race([closed, once(late, 'abort')]);
    if (!session.destroyed) session.destroy();
  };
}

/**
 * One long-lived HTTP/2 connection per project credential, through
 * @parse/node-apn with token auth.
 *
 * Provider token: node-apn signs one ES256 JWT per client and re-signs it
 * once it is 55 minutes old (`isExpired(3300)` in lib/client.js) or when APNs
 * answers 403 ExpiredProviderToken — inside Apple's window of "no more than
 * once every 20 minutes, at least once every 60"
 * (https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns).
 *
 * Retries are the sender's job, so node-apn's own are off
 * (`connectionRetryLimit: 0`): it would otherwise resend 429/5xx answers at
 * once. It also drops `Retry-After` (reads the header in the wrong case, then
 * deletes it), so APNs outcomes never carry `retryAfterMs`; Apple does not
 * document one for APNs anyway.
 */
function apnsNotification(request: ApnsRequest, bundleId: string): apn.Notification {
  const notification = new apn.Notification();
  notification.rawPayload = request.payload;
  notification.topic = bundleId;
  notification.pushType = request.pushType;
  notification.priority = request.priority;
  if (request.collapseId !== undefined) notification.collapseId = request.collapseId;
  if (request.expiry !== undefined) notification.expiry = request.expiry;
  return notification;
}

export function createApnsClient(options: ApnsClientOptions): ApnsClient {
  const { credential } = options;
  checkCredential(credential);
  const endpoint = options.endpoint === undefined ? undefined : parseEndpoint(options.endpoint, 'APNS_ENDPOINT');
  const ca = options.ca === undefined ? undefined : typeof options.ca === 'string' ? [options.ca] : [...options.ca];
  // node-apn hands this whole object to http2.connect, so `address` and `port` decide where it dials and which name TLS verifies.
  const requestTimeoutMs = options.requestTimeoutMs ?? 5000;
  let provider: apn.Provider;
  try {
    provider = new apn.Provider({
      token: { key: credential.keyPem, keyId: credential.keyId, teamId: credential.teamId },
      production: !credential.sandbox,
      ...(endpoint === undefined ? {} : { address: endpoint.host, port: endpoint.port }),
      ...(ca === undefined ? {} : { ca }),
      connectionRetryLimit: 0,
      requestTimeout: requestTimeoutMs,
    });
  } catch (error) {
    // node-apn signs its first provider token in the constructor.
    throw new AppError('INVALID_CONFIG', 'APNs key could not sign a provider token', { cause: error });
  }
  closeSessionsGracefully(provider, requestTimeoutMs);
  const limiter = createLimiter(options.maxInFlight ?? 100, 'APNs maxInFlight');

  async function sendOne(device: DeviceTarget, notification: apn.Notification): Promise<DeviceResult> {
    const { sent, failed } = await provider.send(notification, device.token);
    const raw = apnsRawFromNodeApn(sent[0] ?? failed[0], sent.length > 0);
    return { device_id: device.device_id, ...apnsOutcome(raw) };
  }

  return {
    async send(devices, request, urgent = false) {
      // One notification per distinct request (per batch, or per content): node-apn compiles its body once and reuses it for every token.
      const notifications = new Map<ApnsRequest, apn.Notification>();
      const notificationOf = (device: DeviceTarget) => {
        const own = typeof request === 'function' ? request(device) : request;
        let notification = notifications.get(own);
        if (notification === undefined) notifications.set(own, (notification = apnsNotification(own, credential.bundleId)));
        return notification;
      };
      return Promise.all(devices.map((device) => limiter.run(() => sendOne(device, notificationOf(device)), urgent)));
    },
    async sendLiveActivity(devices, request, urgent = false) {
      const notification = new apn.Notification();
      // rawPayload also keeps node-apn from adding its own `push-type` key to the body.
      notification.rawPayload = request.payload;
      notification.topic = liveActivityTopic(credential.bundleId);
      notification.pushType = request.pushType;
      notification.priority = request.priority;
      return Promise.all(devices.map((device) => limiter.run(() => sendOne(device, notification), urgent)));
    },
    async close() {
      // Provider.shutdown does not return the client's promise; its callback is the only completion signal. node-apn
      // 8.1 never calls it when its session died without closing (e.g. the endpoint refused the connection): the
      // session is already destroyed then, and its ping timers are unref'd, so after a short wait nothing is left.
      const shutdown = new Promise<void>((resolve) => void provider.shutdown(resolve));
      await Promise.race([shutdown, delay(options.closeTimeoutMs ?? 1000, undefined, { ref: false })]);
    },
  };
}
