import type { Collection, Db } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { storeAdapter } from '../store/store-adapter.ts';
import { driverDb, type Store } from '../store-handle.ts';

// The webhooks' documents and their store; what a webhook means (secrets, positions) is libs/admin webhook-store.ts.

/** Next offset per partition of a topic, as stored (field names without dots: topic names have them). */
export interface StoredOffset {
  topic: string;
  partition: number;
  offset: number;
}

export interface WebhookSecret {
  value: string;
  created_at: Date;
  /** Set on the previous secret at a rotation: it stops signing then. */
  expires_at?: Date;
}

export interface WebhookStatus {
  /** Records of the log between the webhook's position and the end, at the last measure. */
  lag: number;
  delivered_events: number;
  failed_attempts: number;
  dead_letters: number;
  last_success_at: Date | null;
  last_failure: { at: Date; error: string } | null;
  updated_at: Date | null;
}

/**
 * A webhook registration: admin data like API keys (written by the API,
 * read by the webhooks service), not events in the log, because it holds
 * its signing secrets (a log kept forever must not) and its position, which
 * the dispatcher moves after every delivery. The secrets are stored as is:
 * signing needs them raw, and sealing them with HERALD_SECRET_KEY would make
 * the internet-facing API hold the key to every project's provider
 * credentials (docs/webhooks.md, "Secrets").
 */
export interface WebhookDocument {
  _id: string;
  project_id: string;
  url: string;
  event_types: string[];
  /** Only this notification's events (device events have no notification: a filtered webhook gets none). */
  notification_id: string | null;
  batch: { max_events: number; max_wait_ms: number };
  /** The signing secrets, newest first; a second one only during a rotation. */
  secrets: WebhookSecret[];
  created_at: Date;
  updated_at: Date;
  /** Bumped by each replay: the dispatcher restarts a webhook whose generation moved. */
  generation: number;
  /** Asked by POST …/replay, resolved and cleared by the dispatcher. */
  replay: { from_time?: Date; position?: StoredOffset[] } | null;
  /** Next offset to deliver per partition; unset until the dispatcher first starts it (then: the end of the log then). */
  position: StoredOffset[] | null;
  status: WebhookStatus;
  /** Paused by PATCH: the dispatcher stops it at its position and starts it from there when resumed (unset: not paused). */
  paused?: boolean;
  /** Which delivery instance runs it, until when. */
  lease?: { owner: string; until: Date };
}

export interface WebhookDeadLetter {
  _id: string;
  webhook_id: string;
  project_id: string;
  event_ids: string[];
  error: string;
  attempts: number;
  first_failure_at: Date;
  at: Date;
}

/** Webhooks and their dead letters (both admin collections). Every query names the project or the webhook id. */
export class WebhookStore {
  readonly #webhooks: Collection<WebhookDocument>;
  readonly #deadLetters: Collection<WebhookDeadLetter>;
  readonly #db: Db;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#db = db;
    this.#webhooks = db.collection<WebhookDocument>(ADMIN_COLLECTIONS.webhooks);
    this.#deadLetters = db.collection<WebhookDeadLetter>(ADMIN_COLLECTIONS.webhookDeadLetters);
  }

  async count(projectId: string): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#webhooks, { project_id: projectId });
  }

  async insert(document: WebhookDocument): Promise<void> {
    await this.#webhooks.insertOne(document);
  }

  async list(projectId: string): Promise<WebhookDocument[]> {
    return this.#webhooks.find({ project_id: projectId }).sort({ created_at: 1, _id: 1 }).toArray();
  }

  async get(projectId: string, id: string): Promise<WebhookDocument | null> {
    return this.#webhooks.findOne({ _id: id, project_id: projectId });
  }

  /** Sets fields of a project's webhook; the updated document, or null when it is not the project's. */
  async update(projectId: string, id: string, set: Partial<WebhookDocument>, inc: Partial<Record<'generation', number>> = {}): Promise<WebhookDocument | null> {
    return this.#webhooks.findOneAndUpdate({ _id: id, project_id: projectId }, { $set: set, ...(Object.keys(inc).length === 0 ? {} : { $inc: inc }) }, { returnDocument: 'after' });
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.#webhooks.deleteOne({ _id: id, project_id: projectId })).deletedCount === 1;
  }

  /** Every webhook (the dispatcher's refresh; bounded by the per-project cap times the projects). */
  async all(): Promise<WebhookDocument[]> {
    return this.#webhooks.find({}).toArray();
  }

  /** Takes or renews the lease on a webhook for `owner` until `until`; false when another instance holds it. */
  async lease(id: string, owner: string, now: Date, until: Date): Promise<boolean> {
    const result = await this.#webhooks.updateOne(
      { _id: id, $or: [{ lease: { $exists: false } }, { 'lease.owner': owner }, { 'lease.until': { $lt: now } }] },
      { $set: { lease: { owner, until } } },
    );
    return result.matchedCount === 1;
  }

  /** Gives a lease up (a stopping instance), so another instance takes the webhook at its next refresh. */
  async release(id: string, owner: string): Promise<void> {
    await this.#webhooks.updateOne({ _id: id, 'lease.owner': owner }, { $unset: { lease: '' } });
  }

  /** The dispatcher's progress: only while the generation it runs is current (a replay asked meanwhile wins). */
  async progress(id: string, generation: number, set: { position?: StoredOffset[]; status?: Omit<WebhookStatus, 'lag'>; replay?: null }): Promise<boolean> {
    const { status, ...rest } = set;
    // Status field by field: lag is the role's to write (setLag), not the endpoint's.
    const fields = Object.fromEntries(Object.entries(status ?? {}).map(([name, value]) => [`status.${name}`, value as unknown]));
    return (await this.#webhooks.updateOne({ _id: id, generation }, { $set: { ...rest, ...fields } })).matchedCount === 1;
  }

  async setLag(id: string, lag: number): Promise<void> {
    await this.#webhooks.updateOne({ _id: id }, { $set: { 'status.lag': lag } });
  }

  async addDeadLetter(deadLetter: WebhookDeadLetter): Promise<void> {
    await this.#deadLetters.insertOne(deadLetter);
  }

  /** A webhook's dead letters, oldest first (index by_webhook_at). */
  async deadLettersOf(webhookId: string): Promise<WebhookDeadLetter[]> {
    return this.#deadLetters.find({ webhook_id: webhookId }).sort({ at: 1 }).toArray();
  }
}
