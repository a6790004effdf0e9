import { randomUUID } from 'node:crypto';
import { EMPTY_WEBHOOK_STATUS, generateWebhookSecret, positionOf, storedOffsets, type WebhookDocument, type WebhookStore } from '@herald/admin';
import { AppError, NotFoundError, ValidationError } from '@herald/errors';
import { STREAM_EVENT_TYPES } from '../domain/event-stream.ts';
import { positionProblems, WEBHOOK_LIMITS, webhookUrlProblems, webhookView } from '../domain/webhook-request.ts';

export interface WebhookSettings {
  perProject: number;
  /** Local mode: http:// to a loopback host is accepted. */
  local: boolean;
}

type Batch = { max_events: number; max_wait_ms: number };
export interface WebhookInput {
  url: string;
  event_types?: string[] | undefined;
  notification_id?: string | null | undefined;
  batch?: Batch | undefined;
}
export interface WebhookPatch extends Partial<WebhookInput> {
  rotate_secret?: boolean | undefined;
  previous_secret_ttl_s?: number | undefined;
  paused?: boolean | undefined;
}

const NO_BATCH: Batch = { max_events: 1, max_wait_ms: 0 };

/** Webhook registrations of a project (admin data: see WebhookStore); the dispatcher is the webhooks service (services/webhooks). */
export class WebhookService {
  readonly #store: WebhookStore;
  readonly #settings: WebhookSettings;
  readonly #now: () => Date;

  constructor(deps: { store: WebhookStore; settings: WebhookSettings; now?: () => Date }) {
    this.#store = deps.store;
    this.#settings = deps.settings;
    this.#now = deps.now ?? (() => new Date());
  }

  async create(projectId: string, input: WebhookInput) {
    this.#checkUrl(input.url);
    if ((await this.#store.count(projectId)) >= this.#settings.perProject) {
      throw new AppError('CONFLICT', `a project has at most ${this.#settings.perProject} webhooks: delete one first`);
    }
    const now = this.#now();
    const secret = generateWebhookSecret();
    const document: WebhookDocument = {
      _id: randomUUID(),
      project_id: projectId,
      url: input.url,
      event_types: input.event_types ?? [...STREAM_EVENT_TYPES],
      notification_id: input.notification_id ?? null,
      batch: input.batch ?? NO_BATCH,
      secrets: [{ value: secret, created_at: now }],
      created_at: now,
      updated_at: now,
      generation: 0,
      replay: null,
      position: null,
      status: EMPTY_WEBHOOK_STATUS,
      paused: false,
    };
    await this.#store.insert(document);
    return { data: webhookView(document, now), secret };
  }

  async list(projectId: string) {
    const now = this.#now();
    return { data: (await this.#store.list(projectId)).map((document) => webhookView(document, now)) };
  }

  async get(projectId: string, id: string) {
    return { data: webhookView(await this.#find(projectId, id), this.#now()) };
  }

  async update(projectId: string, id: string, patch: WebhookPatch) {
    if (patch.url !== undefined) this.#checkUrl(patch.url);
    if (patch.previous_secret_ttl_s !== undefined && patch.rotate_secret !== true) throw new ValidationError(['previous_secret_ttl_s is only allowed with rotate_secret: true']);
    const current = await this.#find(projectId, id);
    const now = this.#now();
    const set: Partial<WebhookDocument> = { updated_at: now };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.event_types !== undefined) set.event_types = patch.event_types;
    if (patch.notification_id !== undefined) set.notification_id = patch.notification_id;
    if (patch.batch !== undefined) set.batch = patch.batch;
    if (patch.paused !== undefined) set.paused = patch.paused;
    let secret: string | undefined;
    if (patch.rotate_secret === true) {
      secret = generateWebhookSecret();
      const overlapMs = (patch.previous_secret_ttl_s ?? WEBHOOK_LIMITS.defaultRotationOverlapS) * 1000;
      // The current secret keeps signing beside the new one until it expires; an older one is dropped now.
      set.secrets = [{ value: secret, created_at: now }, { ...current.secrets[0]!, expires_at: new Date(now.getTime() + overlapMs) }];
    }
    const updated = await this.#store.update(projectId, id, set);
    if (updated === null) throw this.#notFound(id);
    return { data: webhookView(updated, now), ...(secret === undefined ? {} : { secret }) };
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.#store.delete(projectId, id))) throw this.#notFound(id);
  }

  async replay(projectId: string, id: string, body: { from?: string | undefined; position?: Record<string, Record<string, number>> | undefined }) {
    const current = await this.#find(projectId, id);
    const now = this.#now();
    let replay: NonNullable<WebhookDocument['replay']>;
    if (body.from !== undefined) {
      const from = new Date(body.from);
      if (from > now) throw new ValidationError(['from must not be in the future']);
      replay = { from_time: from };
    } else {
      if (current.position === null) throw new AppError('CONFLICT', 'the webhook has not started yet: it has no earlier position (replay from a time instead)');
      const problems = positionProblems(body.position ?? {}, current.position);
      if (problems.length > 0) throw new ValidationError(problems);
      // Partitions the body leaves out keep their current position.
      const position = positionOf(current.position);
      for (const [topic, partitions] of Object.entries(body.position ?? {})) for (const [partition, offset] of Object.entries(partitions)) (position[topic] ??= {})[Number(partition)] = offset;
      replay = { position: storedOffsets(position) };
    }
    const updated = await this.#store.update(projectId, id, { replay, updated_at: now }, { generation: 1 });
    if (updated === null) throw this.#notFound(id);
    return { data: webhookView(updated, now) };
  }

  #checkUrl(url: string): void {
    const problems = webhookUrlProblems(url, this.#settings.local);
    if (problems.length > 0) throw new ValidationError(problems);
  }

  async #find(projectId: string, id: string): Promise<WebhookDocument> {
    const found = await this.#store.get(projectId, id);
    if (found === null) throw this.#notFound(id);
    return found;
  }

  #notFound(id: string): NotFoundError {
    return new NotFoundError(`webhook ${id} does not exist`);
  }
}
