import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { DraftQueries, NotificationQueries, type Store, type DraftDocument, type ReadModelRegistry } from '@herald/mongo';
import { NotFoundError, UnprocessableError } from '@herald/errors';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import type { AcceptedHere } from '../domain/just-sent.ts';
import type { DraftSummary, DraftView } from '../schemas/drafts.ts';

type View = Static<typeof DraftView>;
type Summary = Static<typeof DraftSummary>;

/** What a project may keep (docs/reference/api.md, "Drafts"): enough for a team's campaigns, small enough that a listing stays cheap. */
export const DRAFT_QUOTAS = { draftsPerProject: 500, contentBytes: 64 * 1024 } as const;

const summaryOf = (doc: DraftDocument): Summary => ({ id: doc._id, name: doc.name, source_notification_id: doc.source_notification_id, created_at: doc.created_at.toISOString(), updated_at: doc.updated_at.toISOString() });
const viewOf = (doc: DraftDocument): View => ({ ...summaryOf(doc), content: JSON.parse(doc.content_json) as View['content'] });

/** The content as stored, or 422 when it is over the bound. */
export function draftContentJson(content: unknown): string {
  const json = JSON.stringify(content);
  const bytes = Buffer.byteLength(json);
  if (bytes > DRAFT_QUOTAS.contentBytes) throw new UnprocessableError([`content: ${bytes} bytes as JSON, at most ${DRAFT_QUOTAS.contentBytes}`]);
  return json;
}

/**
 * Drafts are the console's sends being composed, kept per project so a
 * campaign can be named, left and resumed from any browser. They are admin
 * data (never events: nothing was asked of any device), written and read
 * here only; sending a draft is an ordinary POST /api/v1/notifications.
 */
export class DraftService {
  readonly #drafts: DraftQueries;
  readonly #notifications: NotificationQueries;
  readonly #accepted: AcceptedHere | undefined;

  constructor(deps: { db: Store; readModels: ReadModelRegistry; accepted?: AcceptedHere }) {
    this.#drafts = new DraftQueries(deps.db);
    this.#notifications = new NotificationQueries(deps.readModels);
    this.#accepted = deps.accepted;
  }

  async create(projectId: string, input: { name: string; content: unknown; source_notification_id?: string | undefined }): Promise<View> {
    const contentJson = draftContentJson(input.content);
    const source = input.source_notification_id?.toLowerCase() ?? null;
    // Another project's notification id must not be recorded (nor confirmed to exist) here.
    if (source !== null && !(await this.#exists(projectId, source))) throw new UnprocessableError([`source_notification_id: notification ${source} does not exist in this project`]);
    if ((await this.#drafts.count(projectId, DRAFT_QUOTAS.draftsPerProject)) >= DRAFT_QUOTAS.draftsPerProject) {
      throw new UnprocessableError([`the project keeps ${DRAFT_QUOTAS.draftsPerProject} drafts, the most it may: delete one first`]);
    }
    const now = new Date();
    const doc: DraftDocument = { _id: randomUUID(), project_id: projectId, name: input.name, content_json: contentJson, source_notification_id: source, created_at: now, updated_at: now };
    await this.#drafts.insert(doc);
    return viewOf(doc);
  }

  async update(projectId: string, id: string, input: { name: string; content: unknown }): Promise<View> {
    const contentJson = draftContentJson(input.content);
    const doc = await this.#drafts.update(projectId, id.toLowerCase(), { name: input.name, content_json: contentJson, updated_at: new Date() });
    if (doc === null) throw notFound(id);
    return viewOf(doc);
  }

  async list(projectId: string, query: { limit?: number | undefined; page?: number | undefined }): Promise<{ data: Summary[]; pagination: Pagination }> {
    const request = pageRequest(query);
    const [count, docs] = await Promise.all([this.#drafts.count(projectId), this.#drafts.page(projectId, request)]);
    return { data: docs.map(summaryOf), pagination: pagination(request, count, docs.length) };
  }

  async get(projectId: string, id: string): Promise<View> {
    const doc = await this.#drafts.get(projectId, id.toLowerCase());
    if (doc === null) throw notFound(id);
    return viewOf(doc);
  }

  // Accepted here a moment ago counts too: the read model may not hold a notification just sent.
  async #exists(projectId: string, id: string): Promise<boolean> {
    return this.#accepted?.find(projectId, id) !== undefined || (await this.#notifications.notificationExists(projectId, id));
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.#drafts.delete(projectId, id.toLowerCase()))) throw notFound(id);
  }
}

// The same answer for another project's draft and for none: ids are not confirmed across projects.
function notFound(id: string): NotFoundError {
  return new NotFoundError(`draft ${id} does not exist in this project`);
}
