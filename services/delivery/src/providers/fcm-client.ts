import { createPrivateKey, randomUUID } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getMessaging, type BatchResponse } from 'firebase-admin/messaging';
import { ConfigError } from '@herald/errors';
import { chunk, createLimiter } from './concurrency.ts';
import { parseEndpoint } from './endpoint.ts';
import { serviceAccountCredential } from './fcm-credential.ts';
import { fcmOutcome, fcmRawFromError, fcmRawFromResponse, type FcmRawResult } from './fcm-outcome.ts';
import type { FcmMessage } from '@herald/push-payloads';
import { createRedirectAgent, redirectedSession, type RedirectTarget } from './fcm-redirect.ts';
import { FcmSessions, withFcmSessions } from './fcm-sessions.ts';
import type { DeviceResult, DeviceTarget } from './push-message.ts';

/** A Google service-account key file, as uploaded for the project. */
export interface FcmServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  private_key_id?: string;
}

export interface FcmClientOptions {
  serviceAccount: FcmServiceAccount;
  /** Base URL that every Google call goes to instead (FCM_ENDPOINT): OAuth token exchange and FCM send. */
  endpoint?: string | undefined;
  /** Extra trusted CAs (tests). Processes use NODE_EXTRA_CA_CERTS instead; TLS is always verified. */
  ca?: string | readonly string[] | undefined;
  /**
   * Messages in flight at once, in full `sendEach` calls (default 2: 2 ×
   * chunkSize messages; the calls share the client's HTTP/2 session). Counted
   * in messages, so one-device sends run many at once, not two.
   */
  maxConcurrentChunks?: number;
  /** Messages per `sendEach` (default and maximum 500, firebase-admin's limit). */
  chunkSize?: number;
}

export interface FcmClient {
  /**
   * One result per device, in input order. Never throws for provider answers. `urgent` (express lane): its chunks take the next free slots, ahead of waiting campaign chunks.
   * `message` may be each device's own (a batch with per-device content): still one `sendEach` per chunk.
   */
  send(devices: readonly DeviceTarget[], message: FcmMessage | ((device: DeviceTarget) => FcmMessage), urgent?: boolean): Promise<DeviceResult[]>;
  close(): Promise<void>;
}

const MAX_CHUNK = 500;

function checkServiceAccount(account: FcmServiceAccount): void {
  const problems = (['project_id', 'client_email', 'private_key'] as const)
    .filter((field) => typeof account[field] !== 'string' || account[field] === '')
    .map((field) => `FCM service account ${field} must be a non-empty string`);
  if (problems.length === 0) {
    try {
      // Caught here, a broken key is a configuration error; caught at the first token request it would look like an outage.
      createPrivateKey(account.private_key);
    } catch {
      problems.push('FCM service account private_key is not a readable private key');
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/**
 * One firebase-admin app per project credential; `sendEach` in chunks of at
 * most 500 with a bound on messages in flight. Each device's answer is mapped by
 * fcm-outcome. Retries are the sender's, with one exception inside
 * firebase-admin: it retries 503 and connection resets itself (4 times, with
 * back-off and Retry-After), before we see them.
 */
/**
 * firebase-admin reads `app.options` for every message it sends, and the
 * getter deep-copies them each time: the credential and, when redirected,
 * the HTTP agent with its sockets (8 µs of delivery CPU per FCM push in a
 * 100k campaign). Herald never changes an app's options after creating it,
 * so the app hands out the options it was created with.
 */
function keepOptionsUncopied(app: App): void {
  const options = app.options;
  Object.defineProperty(app, 'options', { get: () => options, configurable: true });
}

export function createFcmClient(options: FcmClientOptions): FcmClient {
  const account = options.serviceAccount;
  checkServiceAccount(account);
  const chunkSize = options.chunkSize ?? MAX_CHUNK;
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK) throw new ConfigError([`FCM chunkSize must be an integer from 1 to ${MAX_CHUNK}`]);
  const target: RedirectTarget | undefined =
    options.endpoint === undefined
      ? undefined
      : { ...parseEndpoint(options.endpoint, 'FCM_ENDPOINT'), ca: options.ca === undefined ? undefined : typeof options.ca === 'string' ? [options.ca] : [...options.ca] };
  const agent = target === undefined ? undefined : createRedirectAgent(target);
  // Not firebase-admin's cert(): it memoises credentials process-wide by the account's JSON and ignores the agent (see fcm-credential.ts).
  const app: App = initializeApp(
    { credential: serviceAccountCredential(account, agent), projectId: account.project_id, ...(agent === undefined ? {} : { httpAgent: agent }) },
    `herald-fcm-${account.project_id}-${randomUUID()}`,
  );
  keepOptionsUncopied(app);
  const messaging = getMessaging(app);
  // One HTTP/2 session for every sendEach of this client (firebase-admin would open one per call).
  const sessions = new FcmSessions(target === undefined ? undefined : redirectedSession(target));
  const maxConcurrentChunks = options.maxConcurrentChunks ?? 2;
  if (!Number.isInteger(maxConcurrentChunks) || maxConcurrentChunks < 1) throw new ConfigError(['FCM maxConcurrentChunks must be a positive integer']);
  // Weighted by messages: a one-device call takes one of them, not a whole call's share.
  const limiter = createLimiter(maxConcurrentChunks * chunkSize, 'FCM maxConcurrentChunks');

  async function sendChunk(devices: readonly DeviceTarget[], message: FcmMessage | ((device: DeviceTarget) => FcmMessage)): Promise<DeviceResult[]> {
    const messages = devices.map((device) => ({ ...(typeof message === 'function' ? message(device) : message), token: device.token }));
    let batch: BatchResponse;
    try {
      batch = await withFcmSessions(sessions, () => messaging.sendEach(messages), { mustSee: target !== undefined });
    } catch (error) {
      // The whole call failed (no project id, bad input): every device shares the one outcome.
      const outcome = fcmOutcome(fcmRawFromError(error));
      return devices.map((device) => ({ device_id: device.device_id, ...outcome }));
    }
    return devices.map((device, index) => {
      const response = batch.responses[index];
      const raw: FcmRawResult = response === undefined ? { success: false, code: 'messaging/unknown-error', message: 'no response for this message' } : fcmRawFromResponse(response);
      return { device_id: device.device_id, ...fcmOutcome(raw) };
    });
  }

  return {
    async send(devices, message, urgent = false) {
      if (devices.length === 0) return [];
      const results = await Promise.all(chunk(devices, chunkSize).map((part) => limiter.run(() => sendChunk(part, message), urgent, part.length)));
      return results.flat();
    },
    async close() {
      sessions.close();
      await deleteApp(app);
      agent?.destroy();
    },
  };
}
