import type { Db } from '@herald/mongo';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { newId } from '@herald/events';
import { NotFoundError } from '@herald/errors';
import { apiKeyMatches, generateApiKey, parseApiKey } from './api-key.ts';

export interface Project {
  _id: string;
  name: string;
  created_at: Date;
}

export interface ApiKeyRecord {
  _id: string;
  project_id: string;
  hash: string;
  created_at: Date;
  revoked_at?: Date;
}

/** Projects and API keys: admin data written directly by the CLI, read by the API. */
export class AdminStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  get #projects() {
    return this.#db.collection<Project>(ADMIN_COLLECTIONS.projects);
  }

  get #keys() {
    return this.#db.collection<ApiKeyRecord>(ADMIN_COLLECTIONS.apiKeys);
  }

  async createProject(name: string, now = new Date()): Promise<{ project: Project; apiKey: string }> {
    const project: Project = { _id: newId(), name, created_at: now };
    await this.#projects.insertOne(project);
    const { apiKey } = await this.issueKey(project._id, now);
    return { project, apiKey };
  }

  async findProject(projectId: string): Promise<Project | null> {
    return this.#projects.findOne({ _id: projectId });
  }

  async findProjectByName(name: string): Promise<Project | null> {
    return this.#projects.findOne({ name });
  }

  async listProjects(): Promise<Project[]> {
    return this.#projects.find({}).sort({ created_at: 1 }).toArray();
  }

  /** Issues a new key; the plain key is returned once and never stored. */
  async issueKey(projectId: string, now = new Date()): Promise<{ keyId: string; apiKey: string }> {
    if ((await this.findProject(projectId)) === null) throw new NotFoundError(`project ${projectId} does not exist`);
    const { keyId, apiKey, hash } = generateApiKey();
    await this.#keys.insertOne({ _id: keyId, project_id: projectId, hash, created_at: now });
    return { keyId, apiKey };
  }

  async revokeKey(keyId: string, now = new Date()): Promise<void> {
    const result = await this.#keys.updateOne({ _id: keyId }, { $set: { revoked_at: now } });
    if (result.matchedCount === 0) throw new NotFoundError(`API key ${keyId} does not exist`);
  }

  async listKeys(projectId: string): Promise<Array<Omit<ApiKeyRecord, 'hash'>>> {
    return this.#keys.find({ project_id: projectId }, { projection: { hash: 0 } }).sort({ created_at: 1 }).toArray();
  }

  /** The project a live key belongs to, or undefined for a malformed, unknown or revoked key. */
  async projectForKey(apiKey: string): Promise<string | undefined> {
    const parsed = parseApiKey(apiKey);
    if (parsed === undefined) return undefined;
    const record = await this.#keys.findOne({ _id: parsed.keyId });
    if (record === null || record.revoked_at !== undefined) return undefined;
    return apiKeyMatches(apiKey, record.hash) ? record.project_id : undefined;
  }
}
