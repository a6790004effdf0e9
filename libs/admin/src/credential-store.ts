import { ProviderCredentialQueries, type Store } from '@herald/mongo';
import { AppError, ConfigError, isAppError, NotFoundError } from '@herald/errors';
import { AdminStore } from './admin-store.ts';
import { open, seal, type SealedBox } from './secret-box.ts';
import { summarizeHms, validateHmsCredential, type HmsCredential, type HmsSummary } from './hms-credential.ts';
import {
  describeCredentials,
  summarizeApns,
  summarizeFcm,
  validateApnsCredential,
  validateFcmServiceAccount,
  type ApnsCredential,
  type ApnsSummary,
  type CredentialsDescription,
  type FcmCredential,
  type FcmSummary,
  type ProviderName,
} from './provider-credentials.ts';

const PROVIDER_NAMES: Record<ProviderName, string> = { apns: 'APNs', fcm: 'FCM', hms: 'HMS' };

export interface FcmCredentialInput {
  serviceAccount: Pick<FcmCredential['serviceAccount'], 'project_id' | 'client_email' | 'private_key'>;
}

interface StoredCredential<Summary> {
  sealed: SealedBox;
  /** Shown by `describe` without decrypting; never key material. */
  summary: Summary;
  set_at: Date;
}

export interface ProviderCredentialsRecord {
  /** The project id. */
  _id: string;
  apns?: StoredCredential<ApnsSummary>;
  fcm?: StoredCredential<FcmSummary>;
  hms?: StoredCredential<HmsSummary>;
}

/**
 * The additional authenticated data of a sealed credential: a record only
 * opens as the credential of the project and provider it was sealed for.
 */
export function credentialAad(projectId: string, provider: ProviderName): string {
  return `herald/provider-credentials/v1/${projectId}/${provider}`;
}

/**
 * Per-project APNs, FCM and HMS credentials, encrypted at rest with the key
 * derived from HERALD_SECRET_KEY (see secret-box.ts). One document per
 * project; setting a provider's credential replaces the previous one.
 */
export class CredentialStore {
  readonly #credentials: ProviderCredentialQueries<ProviderCredentialsRecord>;
  readonly #projects: AdminStore;
  readonly #key: Buffer;

  /** `secretKey`: `parseSecretKey(HERALD_SECRET_KEY)`. */
  constructor(db: Store, secretKey: Buffer) {
    if (secretKey.length !== 32) throw new ConfigError(['CredentialStore needs the 32-byte key parseSecretKey(HERALD_SECRET_KEY) returns']);
    this.#credentials = new ProviderCredentialQueries<ProviderCredentialsRecord>(db);
    this.#projects = new AdminStore(db);
    this.#key = secretKey;
  }

  async setApns(projectId: string, credential: ApnsCredential, now = new Date()): Promise<ApnsSummary & { set_at: Date }> {
    const valid = validateApnsCredential(credential);
    const summary = summarizeApns(valid);
    await this.#set(projectId, 'apns', { sealed: this.#seal(projectId, 'apns', valid), summary, set_at: now });
    return { ...summary, set_at: now };
  }

  /** Any object with the required fields will do (e.g. a typed key-file interface); every field of it is kept. */
  async setFcm(projectId: string, credential: FcmCredentialInput, now = new Date()): Promise<FcmSummary & { set_at: Date }> {
    const valid = validateFcmServiceAccount(credential.serviceAccount);
    const summary = summarizeFcm(valid);
    await this.#set(projectId, 'fcm', { sealed: this.#seal(projectId, 'fcm', valid), summary, set_at: now });
    return { ...summary, set_at: now };
  }

  /** Huawei Push Kit: the app id and the OAuth client (id and secret) that gets access tokens. */
  async setHms(projectId: string, credential: HmsCredential, now = new Date()): Promise<HmsSummary & { set_at: Date }> {
    const valid = validateHmsCredential(credential);
    const summary = summarizeHms(valid);
    await this.#set(projectId, 'hms', { sealed: this.#seal(projectId, 'hms', valid), summary, set_at: now });
    return { ...summary, set_at: now };
  }

  /** The decrypted credentials of a project; AppError `INVALID_CONFIG` when this key cannot open them. */
  async get(projectId: string): Promise<{ apns?: ApnsCredential; fcm?: FcmCredential; hms?: HmsCredential }> {
    const record = await this.#find(projectId);
    const credentials: { apns?: ApnsCredential; fcm?: FcmCredential; hms?: HmsCredential } = {};
    if (record?.apns !== undefined) credentials.apns = this.#open<ApnsCredential>(projectId, 'apns', record.apns.sealed);
    if (record?.fcm !== undefined) credentials.fcm = this.#open<FcmCredential>(projectId, 'fcm', record.fcm.sealed);
    if (record?.hms !== undefined) credentials.hms = this.#open<HmsCredential>(projectId, 'hms', record.hms.sealed);
    return credentials;
  }

  /** What is configured, without decrypting anything. */
  async describe(projectId: string): Promise<CredentialsDescription> {
    return describeCredentials((await this.#find(projectId)) ?? {});
  }

  /** Ids of the projects with at least one provider credential. */
  async listConfigured(): Promise<string[]> {
    return this.#credentials.projectIds();
  }

  #seal(projectId: string, provider: ProviderName, credential: ApnsCredential | FcmCredential | HmsCredential): SealedBox {
    return seal(this.#key, JSON.stringify(credential), credentialAad(projectId, provider));
  }

  #open<Credential>(projectId: string, provider: ProviderName, sealed: SealedBox): Credential {
    try {
      return JSON.parse(open(this.#key, sealed, credentialAad(projectId, provider))) as Credential;
    } catch (cause) {
      const message = isAppError(cause) ? cause.message : 'stored secret is not valid JSON';
      throw new AppError('INVALID_CONFIG', `${PROVIDER_NAMES[provider]} credentials of project ${projectId}: ${message}`, { cause });
    }
  }

  async #find(projectId: string): Promise<ProviderCredentialsRecord | null> {
    const record = await this.#credentials.credentials(projectId);
    if (record === null) await this.#requireProject(projectId);
    return record;
  }

  async #requireProject(projectId: string): Promise<void> {
    if ((await this.#projects.findProject(projectId)) === null) throw new NotFoundError(`project ${projectId} does not exist`);
  }

  async #set<Provider extends ProviderName>(projectId: string, provider: Provider, stored: NonNullable<ProviderCredentialsRecord[Provider]>): Promise<void> {
    await this.#requireProject(projectId);
    await this.#credentials.setProvider(projectId, provider, stored);
  }
}
