import type { Static } from 'typebox';
import { TemplateQueries, type Store, type TemplateHead, type TemplateVersion } from '@herald/mongo';
import { AppError, NotFoundError, UnprocessableError } from '@herald/errors';
import { checkTemplate, checkVariables, describeProblem, parseTemplateReference, templateIdFor, type TemplateContent, type TemplateSamples } from '@herald/templates';
import type { PinnedTemplate } from '@herald/events';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import type { TemplateSummary, TemplateVersionView } from '../schemas/templates.ts';

type VersionView = Static<typeof TemplateVersionView>;
type SummaryView = Static<typeof TemplateSummary>;

/** What a project may keep (docs/guides/templates.md, "Limits"). */
export const TEMPLATE_QUOTAS = { templatesPerProject: 1_000, versionsPerTemplate: 1_000 } as const;

const versionView = (name: string, doc: TemplateVersion): VersionView => ({ id: doc.template_id, name, version: doc.version, content: doc.content, created_at: doc.created_at.toISOString() });
const summaryView = (head: TemplateHead): SummaryView => ({ id: head._id, name: head.name, latest_version: head.latest, created_at: head.created_at.toISOString(), updated_at: head.updated_at.toISOString() });

/**
 * Templates are the project's admin data, like its webhooks: written and
 * read here, at once (a send may name a template the moment it is saved),
 * numbered atomically. A send copies the version it uses into its
 * NotificationRequested, so the event log alone renders it, now or in a
 * replay, whatever becomes of the template.
 */
export class TemplateService {
  readonly #templates: TemplateQueries;

  constructor(deps: { db: Store }) {
    this.#templates = new TemplateQueries(deps.db);
  }

  /** The store's questions, for the send path (notification-service.ts resolves `template` with them). */
  get queries(): TemplateQueries {
    return this.#templates;
  }

  async create(projectId: string, input: { name: string; content: TemplateContent; samples?: TemplateSamples | undefined }): Promise<VersionView> {
    check(input.content, input.samples);
    if ((await this.#templates.count(projectId, TEMPLATE_QUOTAS.templatesPerProject)) >= TEMPLATE_QUOTAS.templatesPerProject) {
      throw new UnprocessableError([`the project has ${TEMPLATE_QUOTAS.templatesPerProject} templates, the most it may keep: delete one first`]);
    }
    const now = new Date();
    const id = templateIdFor(projectId, input.name);
    const head = await this.#templates.claimNew(projectId, id, input.name, now);
    if (head === null) throw new AppError('CONFLICT', `a template named "${input.name}" exists (id ${id}): PUT /api/v1/templates/${id} saves a new version of it`);
    return this.#save(projectId, head, input.content, now);
  }

  async update(projectId: string, id: string, input: { content: TemplateContent; samples?: TemplateSamples | undefined }): Promise<VersionView> {
    check(input.content, input.samples);
    const current = await this.#head(projectId, id);
    if (current.latest >= TEMPLATE_QUOTAS.versionsPerTemplate) {
      throw new UnprocessableError([`template ${id} has had ${TEMPLATE_QUOTAS.versionsPerTemplate} versions, the most one keeps: create a new template`]);
    }
    const now = new Date();
    const head = await this.#templates.claimNext(projectId, id, now);
    if (head === null) throw notFound(projectId, id);
    return this.#save(projectId, head, input.content, now);
  }

  async #save(projectId: string, head: TemplateHead, content: TemplateContent, now: Date): Promise<VersionView> {
    const doc: TemplateVersion = { _id: `${head._id}@${head.latest}`, template_id: head._id, project_id: projectId, version: head.latest, content, created_at: now };
    await this.#templates.insertVersion(doc);
    return versionView(head.name, doc);
  }

  async list(projectId: string, query: { limit?: number | undefined; page?: number | undefined }): Promise<{ data: SummaryView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    const [count, heads] = await Promise.all([this.#templates.count(projectId), this.#templates.page(projectId, request)]);
    return { data: heads.map(summaryView), pagination: pagination(request, count, heads.length) };
  }

  /** The newest version (or `version`) of a live template. */
  async get(projectId: string, id: string, version?: number): Promise<VersionView> {
    const head = await this.#head(projectId, id);
    const doc = await this.#templates.version(projectId, id, version);
    if (doc === null) throw new NotFoundError(version === undefined ? `template ${id} has no saved version yet` : `template ${id} has no version ${version}`);
    return versionView(head.name, doc);
  }

  async versions(projectId: string, id: string, query: { limit?: number | undefined; page?: number | undefined }): Promise<{ data: Array<{ version: number; created_at: string }>; pagination: Pagination }> {
    await this.#head(projectId, id);
    const request = pageRequest(query);
    const [count, docs] = await Promise.all([this.#templates.countVersions(projectId, id), this.#templates.versions(projectId, id, request)]);
    return { data: docs.map((doc) => ({ version: doc.version, created_at: doc.created_at.toISOString() })), pagination: pagination(request, count, docs.length) };
  }

  /**
   * What a send's `template` and `variables` resolve to: the version (named,
   * or the newest) copied whole, to be pinned in its NotificationRequested;
   * or the problems (422), each naming `notification.template` or the
   * locale, field and line a variable breaks.
   */
  async pin(projectId: string, reference: string, variables: Record<string, unknown>): Promise<{ template: PinnedTemplate } | { problems: string[] }> {
    const parsed = parseTemplateReference(projectId, reference);
    if (parsed === undefined) return { problems: [`notification.template "${reference}" is not a template name or id, optionally with @<version> (a positive integer)`] };
    const head = await this.#templates.head(projectId, parsed.id);
    if (head === null) return { problems: [`notification.template "${parsed.written}" is not a template of this project`] };
    const doc = await this.#templates.version(projectId, parsed.id, parsed.version);
    if (doc === null) return { problems: [`notification.template "${parsed.written}" has no version ${parsed.version ?? '(none saved yet)'}`] };
    const content = doc.content as TemplateContent;
    const problems = checkVariables(content, variables);
    if (problems.length > 0) return { problems: problems.map((problem) => `notification.variables: ${describeProblem(problem)}`) };
    return { template: { id: head._id, name: head.name, version: doc.version, content, variables } };
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.#templates.delete(projectId, id, new Date()))) throw notFound(projectId, id);
  }

  async #head(projectId: string, id: string): Promise<TemplateHead> {
    const head = await this.#templates.head(projectId, id);
    if (head === null) throw notFound(projectId, id);
    return head;
  }
}

function notFound(projectId: string, id: string): NotFoundError {
  return new NotFoundError(`template ${id} does not exist in project ${projectId}`);
}

/** The save-time check: 422 listing every problem, each naming locale, field and line. */
function check(content: TemplateContent, samples: TemplateSamples | undefined): void {
  const problems = checkTemplate(content, samples ?? {});
  if (problems.length > 0) throw new UnprocessableError(problems.map(describeProblem));
}
