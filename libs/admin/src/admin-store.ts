import { randomBytes } from 'node:crypto';
import { ProjectQueries, type Store } from '@herald/mongo';
import { newId } from '@herald/events';
import { NotFoundError } from '@herald/errors';
import { apiKeyMatches, generateApiKey, parseApiKey } from './api-key.ts';
import { generateDeviceAuthSecret } from './device-auth.ts';
import type { FrequencyCap, QuietHoursSetting } from './campaign-caps.ts';

export interface Project {
  _id: string;
  name: string;
  created_at: Date;
  /** IANA zone for local-time sends to devices that registered none (UTC when unset). */
  default_timezone?: string;
  /** Devices may create topics by naming them in a registration (off unless the project opts in). */
  device_topics?: boolean;
  /** The project's own device quota, instead of the API's default (PROJECT_DEVICE_QUOTA). */
  device_quota?: number;
  /** The pace of sends that set no `rate_per_minute` (larger than one fan-out step); unset: unpaced. */
  default_rate_per_minute?: number;
  /** Pushes per second all the project's sends share across every delivery instance (campaigns wait, transactional sends draw first); unset: unlimited. */
  budget_per_second?: number;
  /** At most `max` campaign pushes per device (or per user: `external_id`) per window (`herald projects caps`); unset: none. */
  frequency_cap?: FrequencyCap;
  /** No campaign push between `start` and `end` in the device's own zone (`herald projects quiet-hours`); unset: none. */
  quiet_hours?: QuietHoursSetting;
}

/**
 * Identity verification of a project (see device-auth.ts). The secret is
 * stored as is, not sealed with HERALD_SECRET_KEY: verifying an HMAC needs
 * the raw key, so sealing it would make the internet-facing API hold
 * HERALD_SECRET_KEY, which also opens every project's APNs and FCM
 * credentials. A reader of this collection learns only the power to write
 * device metadata of the project (it can read devices' tokens and metadata
 * from the read models already); `identity-verification on --rotate`
 * replaces a leaked secret.
 */
export interface DeviceAuth {
  secret: string;
  enabled_at: Date;
}

/**
 * The stored project: `device_auth` is present while identity verification
 * is on; `stream_key` signs its event streams' resume ids. Neither is
 * returned by the project getters.
 */
interface ProjectRecord extends Project {
  device_auth?: DeviceAuth;
  stream_key?: string;
}

/** What the API needs to check a device-facing metadata write. */
export type IdentityVerification = { enabled: false } | { enabled: true; secret: string };

export interface ApiKeyRecord {
  _id: string;
  project_id: string;
  hash: string;
  created_at: Date;
  revoked_at?: Date;
}

/** Projects and API keys: admin data written directly by the CLI, read by the API. */
export class AdminStore {
  /** The project getters return neither secret. */
  readonly #store: ProjectQueries<ProjectRecord, ApiKeyRecord>;

  constructor(db: Store) {
    this.#store = new ProjectQueries<ProjectRecord, ApiKeyRecord>(db, ['device_auth', 'stream_key']);
  }

  async createProject(name: string, now = new Date()): Promise<{ project: Project; apiKey: string }> {
    const project: Project = { _id: newId(), name, created_at: now };
    await this.#store.insertProject(project);
    const { apiKey } = await this.issueKey(project._id, now);
    return { project, apiKey };
  }

  async findProject(projectId: string): Promise<Project | null> {
    return this.#store.project(projectId);
  }

  /** Sets the zone local-time sends use for devices without one; false when there is no such project. */
  async setDefaultTimezone(projectId: string, timezone: string): Promise<boolean> {
    return this.#store.setField(projectId, 'default_timezone', timezone);
  }

  /** Lets the project's devices create topics (or stops them); false when there is no such project. */
  async setDeviceTopics(projectId: string, allowed: boolean): Promise<boolean> {
    return this.#store.setField(projectId, 'device_topics', allowed ? true : undefined);
  }

  /** The pace of sends that set none (undefined: unpaced); false when there is no such project. */
  async setDefaultRate(projectId: string, ratePerMinute: number | undefined): Promise<boolean> {
    return this.#store.setField(projectId, 'default_rate_per_minute', ratePerMinute);
  }

  /** The project's budget in pushes per second (undefined: unlimited); false when there is no such project. */
  async setBudget(projectId: string, perSecond: number | undefined): Promise<boolean> {
    return this.#store.setField(projectId, 'budget_per_second', perSecond);
  }

  /** The project's frequency cap for campaign sends (undefined: none); false when there is no such project. */
  async setFrequencyCap(projectId: string, cap: FrequencyCap | undefined): Promise<boolean> {
    return this.#store.setField(projectId, 'frequency_cap', cap);
  }

  /** The project's quiet hours for campaign sends (undefined: none); false when there is no such project. */
  async setQuietHours(projectId: string, quiet: QuietHoursSetting | undefined): Promise<boolean> {
    return this.#store.setField(projectId, 'quiet_hours', quiet);
  }

  /** The project's own device quota (undefined: back to the API's default); false when there is no such project. */
  async setDeviceQuota(projectId: string, quota: number | undefined): Promise<boolean> {
    return this.#store.setField(projectId, 'device_quota', quota);
  }

  /**
   * The key that signs the project's event-stream resume ids, made on first
   * use (32 random bytes, hex). Only where none is set yet: two API
   * processes asking at once keep the same one. Null when there is no such project.
   */
  async streamKey(projectId: string): Promise<string | null> {
    const read = () => this.#store.projectFields(projectId, ['stream_key']);
    const found = await read();
    if (found === null) return null;
    if (found.stream_key !== undefined) return found.stream_key;
    await this.#store.setField(projectId, 'stream_key', randomBytes(32).toString('hex'), { onlyIfUnset: true });
    return (await read())?.stream_key ?? null;
  }

  async listProjects(): Promise<Project[]> {
    return this.#store.projects();
  }

  /** The project's identity-verification setting, or null when there is no such project. */
  async identityVerification(projectId: string): Promise<IdentityVerification | null> {
    const project = await this.#store.projectFields(projectId, ['device_auth']);
    if (project === null) return null;
    return project.device_auth === undefined ? { enabled: false } : { enabled: true, secret: project.device_auth.secret };
  }

  /**
   * Turns identity verification on. A new secret is returned only when one
   * is issued: when it was off, or with `rotate` (the old secret stops
   * working at once). Turning it on again without `rotate` keeps the secret.
   */
  async enableIdentityVerification(
    projectId: string,
    options: { rotate?: boolean } = {},
    now = new Date(),
  ): Promise<{ secret: string | undefined; enabled_at: Date }> {
    const deviceAuth: DeviceAuth = { secret: generateDeviceAuthSecret(), enabled_at: now };
    // Only where it is off unless rotating: two concurrent `on`s issue one secret, not two where the first is silently lost.
    if (await this.#store.setField(projectId, 'device_auth', deviceAuth, { onlyIfUnset: options.rotate !== true })) return { secret: deviceAuth.secret, enabled_at: now };
    const existing = await this.#store.projectFields(projectId, ['device_auth']);
    if (existing === null) throw new NotFoundError(`project ${projectId} does not exist`);
    // Turned off between the two reads: try again, now it is off.
    if (existing.device_auth === undefined) return this.enableIdentityVerification(projectId, options, now);
    return { secret: undefined, enabled_at: existing.device_auth.enabled_at };
  }

  /** Turns identity verification off and forgets the secret; resolves with whether it was on. */
  async disableIdentityVerification(projectId: string): Promise<{ was_enabled: boolean }> {
    const before = await this.identityVerification(projectId);
    if (before === null) throw new NotFoundError(`project ${projectId} does not exist`);
    await this.#store.setField(projectId, 'device_auth', undefined);
    return { was_enabled: before.enabled };
  }

  /** Issues a new key; the plain key is returned once and never stored. */
  async issueKey(projectId: string, now = new Date()): Promise<{ keyId: string; apiKey: string }> {
    if ((await this.findProject(projectId)) === null) throw new NotFoundError(`project ${projectId} does not exist`);
    const { keyId, apiKey, hash } = generateApiKey();
    await this.#store.insertKey({ _id: keyId, project_id: projectId, hash, created_at: now });
    return { keyId, apiKey };
  }

  async revokeKey(keyId: string, now = new Date()): Promise<void> {
    if (!(await this.#store.revokeKey(keyId, now))) throw new NotFoundError(`API key ${keyId} does not exist`);
  }

  async listKeys(projectId: string): Promise<Array<Omit<ApiKeyRecord, 'hash'>>> {
    return this.#store.keys(projectId);
  }

  /** The project a live key belongs to, or undefined for a malformed, unknown or revoked key. */
  async projectForKey(apiKey: string): Promise<string | undefined> {
    const parsed = parseApiKey(apiKey);
    if (parsed === undefined) return undefined;
    const record = await this.#store.key(parsed.keyId);
    if (record === null || record.revoked_at !== undefined) return undefined;
    return apiKeyMatches(apiKey, record.hash) ? record.project_id : undefined;
  }
}
