import { ConfigError, AppError, isAppError, NotFoundError } from '@herald/errors';
import { ProviderCredentialQueries, type Store } from '@herald/mongo';
import { AdminStore } from './admin-store.ts';
import { open, seal, type SealedBox } from './secret-box.ts';
import { generateVapidKey, summarizeWebPush, withNewVapidKey, type WebPushCredential, type WebPushSummary } from './webpush-keys.ts';

/**
 * The `webpush` field of a project's provider-credentials document (the one
 * CredentialStore keeps `apns` and `fcm` in): the key pairs sealed, the
 * public summary beside them in the clear.
 */
export interface WebPushRecord {
  _id: string;
  webpush?: { sealed: SealedBox; summary: WebPushSummary; set_at: Date };
}

/** The same additional authenticated data scheme as credentialAad: a sealed box opens only as this project's webpush keys. */
function webPushAad(projectId: string): string {
  return `herald/provider-credentials/v1/${projectId}/webpush`;
}

/**
 * Reads the projects' VAPID public keys without the secret key: the API's
 * public-key route and registrations need only these.
 */
export class WebPushKeyDirectory {
  readonly #credentials: ProviderCredentialQueries<WebPushRecord>;

  constructor(db: Store) {
    this.#credentials = new ProviderCredentialQueries<WebPushRecord>(db);
  }

  async summary(projectId: string): Promise<WebPushSummary | undefined> {
    return (await this.#credentials.credentials(projectId))?.webpush?.summary;
  }
}

/**
 * A project's VAPID key pairs, encrypted at rest with HERALD_SECRET_KEY like
 * the APNs and FCM credentials (secret-box.ts). Generating adds a key that
 * becomes current and keeps the earlier ones (webpush-keys.ts).
 */
export class WebPushKeyStore {
  readonly #credentials: ProviderCredentialQueries<WebPushRecord>;
  readonly #projects: AdminStore;
  readonly #key: Buffer;

  constructor(db: Store, secretKey: Buffer) {
    if (secretKey.length !== 32) throw new ConfigError(['WebPushKeyStore needs the 32-byte key parseSecretKey(HERALD_SECRET_KEY) returns']);
    this.#credentials = new ProviderCredentialQueries<WebPushRecord>(db);
    this.#projects = new AdminStore(db);
    this.#key = secretKey;
  }

  /** Generates a key pair and makes it current; `subject` is required the first time and replaces the stored one when given. */
  async generate(projectId: string, subject: string | undefined, now = new Date()): Promise<WebPushSummary> {
    if ((await this.#projects.findProject(projectId)) === null) throw new NotFoundError(`project ${projectId} does not exist`);
    const credential = withNewVapidKey(await this.get(projectId), subject, generateVapidKey(now));
    const summary = summarizeWebPush(credential);
    await this.#credentials.setProvider(projectId, 'webpush', { sealed: seal(this.#key, JSON.stringify(credential), webPushAad(projectId)), summary, set_at: now });
    return summary;
  }

  /** The decrypted keys, or undefined when the project has none; AppError `INVALID_CONFIG` when this secret key cannot open them. */
  async get(projectId: string): Promise<WebPushCredential | undefined> {
    const stored = (await this.#credentials.credentials(projectId))?.webpush;
    if (stored === undefined) return undefined;
    try {
      return JSON.parse(open(this.#key, stored.sealed, webPushAad(projectId))) as WebPushCredential;
    } catch (cause) {
      const message = isAppError(cause) ? cause.message : 'stored secret is not valid JSON';
      throw new AppError('INVALID_CONFIG', `Web Push keys of project ${projectId}: ${message}`, { cause });
    }
  }

  async summary(projectId: string): Promise<WebPushSummary | undefined> {
    return (await this.#credentials.credentials(projectId))?.webpush?.summary;
  }
}
