import { createHash } from 'node:crypto';
import type { Logger } from '@herald/log';
import type { ApnsCredential, FcmCredential, HmsCredential, WebPushCredential } from '@herald/admin';
import { createApnsClient, type ApnsClient } from '../providers/apns-client.ts';
import { createFcmClient, type FcmClient } from '../providers/fcm-client.ts';
import { createHmsClient, type HmsClient, type HmsClientOptions } from '../providers/hms-client.ts';
import { createWebPushClient, type WebPushClient, type WebPushClientOptions, type WebPushProjectKeys } from '../providers/webpush-client.ts';

export interface ProjectCredentials {
  apns?: ApnsCredential | undefined;
  fcm?: FcmCredential | undefined;
  hms?: HmsCredential | undefined;
}

/** Where a sender finds a project's credentials (the encrypted store, in production). */
export interface CredentialSource {
  get(projectId: string): Promise<ProjectCredentials>;
  /** The project's VAPID keys (libs/admin WebPushKeyStore), read apart: the APNs and FCM clients never need them. */
  webpush?(projectId: string): Promise<WebPushCredential | undefined>;
}

/** The production source: the sealed APNs/FCM credentials and the sealed VAPID keys. */
export function projectCredentials(credentials: { get(projectId: string): Promise<ProjectCredentials> }, vapid: { get(projectId: string): Promise<WebPushCredential | undefined> }): CredentialSource {
  return { get: (projectId) => credentials.get(projectId), webpush: (projectId) => vapid.get(projectId) };
}

/** A project's Web Push sending: the process's one client (connections, VAPID headers and 429 holds are per push service, not per project) and the project's keys. */
export interface WebPushProject {
  client: WebPushClient;
  keys: WebPushProjectKeys;
  close(): Promise<void>;
}

/** A project's Push Kit sending: the process's one client (connections, OAuth tokens cached per credential, HMS_MAX_IN_FLIGHT) and the project's credential. */
export interface HmsProject {
  client: HmsClient;
  credential: HmsCredential;
  close(): Promise<void>;
}

export interface ProviderClientSettings {
  credentials: CredentialSource;
  logger: Logger;
  apnsEndpoint?: string | undefined;
  fcmEndpoint?: string | undefined;
  /** Extra trusted CAs for tests; processes use NODE_EXTRA_CA_CERTS. */
  ca?: string | undefined;
  apnsMaxInFlight?: number;
  apnsRequestTimeoutMs?: number;
  fcmMaxConcurrentChunks?: number;
  /** The Web Push client's settings (the webpush role); absent: no Web Push client. */
  webpush?: Omit<WebPushClientOptions, 'ca'> | undefined;
  /** The Push Kit client's settings (the hms role); absent: no Push Kit client. */
  hms?: Omit<HmsClientOptions, 'ca'> | undefined;
  /** How often a cached client re-reads its credential, to pick up a replaced key. */
  refreshMs?: number;
}

interface Cached<C> {
  client: C | undefined;
  fingerprint: string;
  checkedAt: number;
}

type Client = ApnsClient | FcmClient | WebPushProject | HmsProject;

function fingerprint(value: unknown): string {
  return value === undefined ? '' : createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/**
 * One long-lived client per project credential and provider (HTTP/2
 * sessions and provider tokens are reused across batches). A credential
 * that is replaced is noticed within `refreshMs`; the old client is closed.
 */
export class ProviderClients {
  readonly #settings: ProviderClientSettings;
  readonly #cache = new Map<string, Cached<Client>>();
  readonly #pending = new Map<string, Promise<Client | undefined>>();
  #webPushClient: WebPushClient | undefined;
  #hmsClient: HmsClient | undefined;

  constructor(settings: ProviderClientSettings) {
    this.#settings = settings;
  }

  /**
   * The project's VAPID keys with the shared Web Push client, or undefined
   * when the project has none (re-read every `refreshMs`: a rotation adds a
   * key, and devices subscribed with it are pushed to from then on).
   * `fresh`: re-read now (a device names a key the cached ones lack: it
   * subscribed after a rotation this process has not seen yet).
   */
  async webpush(projectId: string, options: { fresh?: boolean } = {}): Promise<WebPushProject | undefined> {
    const source = this.#settings.credentials;
    const cached = this.#cache.get(`webpush:${projectId}`);
    if (options.fresh === true && cached !== undefined) cached.checkedAt = 0;
    return this.#get(`webpush:${projectId}`, async () => (source.webpush === undefined ? undefined : source.webpush(projectId)), (credential: WebPushCredential) => ({
      client: this.#sharedWebPushClient(),
      keys: { subject: credential.subject, keys: credential.keys.map(({ id, public_key, private_key }) => ({ id, public_key, private_key })) },
      // The client is the process's, not the project's: closeAll closes it.
      close: async () => {},
    })) as Promise<WebPushProject | undefined>;
  }

  #sharedWebPushClient(): WebPushClient {
    const options = this.#settings.webpush;
    if (options === undefined) throw new Error('no Web Push client settings: this process does not run the webpush role');
    this.#webPushClient ??= createWebPushClient({ ...options, ca: this.#settings.ca });
    return this.#webPushClient;
  }

  /**
   * The project's Push Kit credential with the shared client, or undefined
   * when the project has none (`herald providers hms`); re-read every
   * `refreshMs`, so a replaced secret is used from then on.
   */
  async hms(projectId: string): Promise<HmsProject | undefined> {
    return this.#get(`hms:${projectId}`, async () => (await this.#settings.credentials.get(projectId)).hms, (credential: HmsCredential) => ({
      client: this.#sharedHmsClient(),
      credential: { appId: credential.appId, clientId: credential.clientId, clientSecret: credential.clientSecret },
      // The client is the process's, not the project's: closeAll closes it.
      close: async () => {},
    })) as Promise<HmsProject | undefined>;
  }

  #sharedHmsClient(): HmsClient {
    const options = this.#settings.hms;
    if (options === undefined) throw new Error('no Push Kit client settings: this process does not run the hms role');
    this.#hmsClient ??= createHmsClient({ ...options, ca: this.#settings.ca });
    return this.#hmsClient;
  }

  async apns(projectId: string): Promise<ApnsClient | undefined> {
    return this.#get(`apns:${projectId}`, async () => (await this.#settings.credentials.get(projectId)).apns, (credential) =>
      createApnsClient({
        credential,
        endpoint: this.#settings.apnsEndpoint,
        ca: this.#settings.ca,
        ...(this.#settings.apnsMaxInFlight === undefined ? {} : { maxInFlight: this.#settings.apnsMaxInFlight }),
        ...(this.#settings.apnsRequestTimeoutMs === undefined ? {} : { requestTimeoutMs: this.#settings.apnsRequestTimeoutMs }),
      }),
    ) as Promise<ApnsClient | undefined>;
  }

  async fcm(projectId: string): Promise<FcmClient | undefined> {
    return this.#get(`fcm:${projectId}`, async () => (await this.#settings.credentials.get(projectId)).fcm, (credential) =>
      createFcmClient({
        serviceAccount: credential.serviceAccount,
        endpoint: this.#settings.fcmEndpoint,
        ca: this.#settings.ca,
        ...(this.#settings.fcmMaxConcurrentChunks === undefined ? {} : { maxConcurrentChunks: this.#settings.fcmMaxConcurrentChunks }),
      }),
    ) as Promise<FcmClient | undefined>;
  }

  /**
   * The cached client, re-checked against its credential every `refreshMs`.
   * Concurrent batches of a cold project share one lookup (the promise is
   * cached), so they share one client and its in-flight bound.
   */
  #get<Credential>(key: string, load: () => Promise<Credential | undefined>, create: (credential: Credential) => Client): Promise<Client | undefined> {
    const cached = this.#cache.get(key);
    if (cached !== undefined && Date.now() - cached.checkedAt < (this.#settings.refreshMs ?? 60_000)) return Promise.resolve(cached.client);
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const lookup = this.#refresh(key, cached, load, create).finally(() => this.#pending.delete(key));
    this.#pending.set(key, lookup);
    return lookup;
  }

  async #refresh<Credential>(key: string, cached: Cached<Client> | undefined, load: () => Promise<Credential | undefined>, create: (credential: Credential) => Client): Promise<Client | undefined> {
    const now = Date.now();
    const credential = await load();
    const print = fingerprint(credential);
    if (cached !== undefined && cached.fingerprint === print) {
      cached.checkedAt = now;
      return cached.client;
    }
    await cached?.client?.close();
    let client: Client | undefined;
    if (credential !== undefined) {
      try {
        client = create(credential);
      } catch (error) {
        this.#settings.logger.error({ err: error, key }, 'provider credential cannot be used');
      }
    }
    this.#cache.set(key, { client, fingerprint: print, checkedAt: now });
    return client;
  }

  async closeAll(): Promise<void> {
    const clients = [...this.#cache.values()].flatMap((entry) => (entry.client === undefined ? [] : [entry.client]));
    this.#cache.clear();
    await Promise.all(clients.map((client) => client.close()));
    this.#webPushClient?.close();
    this.#webPushClient = undefined;
    this.#hmsClient?.close();
    this.#hmsClient = undefined;
  }
}
