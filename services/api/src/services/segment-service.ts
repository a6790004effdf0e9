import type { Static } from 'typebox';
import { expressionProblems, MAX_SEGMENT_NESTING, segmentLookupOf, segmentReferences } from '@herald/audience';
import { segmentIdFor, type PinnedSegment, type TargetExpression } from '@herald/events';
import { SegmentQueries, type Store, type ReadModelRegistry, type SegmentHead, type SegmentVersion } from '@herald/mongo';
import { AppError, NotFoundError, UnprocessableError } from '@herald/errors';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import type { SegmentSummary, SegmentVersionView } from '../schemas/segments.ts';
import { audienceSize, audienceTotal, type AudienceSize } from './audience-size.ts';

type VersionView = Static<typeof SegmentVersionView>;
type SummaryView = Static<typeof SegmentSummary>;

/** What a project may keep, and what one send may pin (docs/guides/targets.md, "Saved segments"). */
export const SEGMENT_QUOTAS = { segmentsPerProject: 1_000, versionsPerSegment: 1_000, pinnedPerSend: 50 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const versionView = (name: string, doc: SegmentVersion): VersionView => ({ id: doc.segment_id, name, version: doc.version, filter: doc.filter as VersionView['filter'], created_at: doc.created_at.toISOString() });
const summaryView = (head: SegmentHead): SummaryView => ({ id: head._id, name: head.name, latest_version: head.latest, created_at: head.created_at.toISOString(), updated_at: head.updated_at.toISOString() });

/**
 * Saved segments are the project's admin data, like its templates: written
 * and read here, at once (a send may name a segment the moment it is
 * saved), numbered atomically. A send pins the versions it uses (the newest
 * of each segment it names, and of each segment those name) in its
 * NotificationRequested, so a later edit never changes what it meant, and
 * delivery and replays never read this store.
 */
export class SegmentService {
  readonly #segments: SegmentQueries;
  readonly #readModels: ReadModelRegistry;

  constructor(deps: { db: Store; readModels: ReadModelRegistry }) {
    this.#segments = new SegmentQueries(deps.db);
    this.#readModels = deps.readModels;
  }

  async create(projectId: string, input: { name: string; filter: unknown }): Promise<VersionView> {
    const id = segmentIdFor(projectId, input.name);
    await this.#check(projectId, id, input.name, input.filter);
    if ((await this.#segments.count(projectId, SEGMENT_QUOTAS.segmentsPerProject)) >= SEGMENT_QUOTAS.segmentsPerProject) {
      throw new UnprocessableError([`the project has ${SEGMENT_QUOTAS.segmentsPerProject} segments, the most it may keep: delete one first`]);
    }
    const now = new Date();
    const head = await this.#segments.claimNew(projectId, id, input.name, now);
    if (head === null) throw new AppError('CONFLICT', `a segment named "${input.name}" exists (id ${id}): PUT /api/v1/segments/${id} saves a new version of it`);
    return this.#save(projectId, head, input.filter, now);
  }

  async update(projectId: string, id: string, input: { filter: unknown }): Promise<VersionView> {
    const current = await this.#head(projectId, id);
    await this.#check(projectId, id, current.name, input.filter);
    if (current.latest >= SEGMENT_QUOTAS.versionsPerSegment) throw new UnprocessableError([`segment ${id} has had ${SEGMENT_QUOTAS.versionsPerSegment} versions, the most one keeps: save a new segment`]);
    const now = new Date();
    const head = await this.#segments.claimNext(projectId, id, now);
    if (head === null) throw notFound(projectId, id);
    return this.#save(projectId, head, input.filter, now);
  }

  async #save(projectId: string, head: SegmentHead, filter: unknown, now: Date): Promise<VersionView> {
    const doc: SegmentVersion = { _id: `${head._id}@${head.latest}`, segment_id: head._id, project_id: projectId, version: head.latest, filter, created_at: now };
    await this.#segments.insertVersion(doc);
    return versionView(head.name, doc);
  }

  /**
   * A filter a segment may hold (422 otherwise, naming the path): a valid
   * target; every segment it names exists; and none of them leads back to
   * this one (`id`), however deep, within the nesting bound.
   */
  async #check(projectId: string, id: string, name: string, filter: unknown): Promise<void> {
    const problems = expressionProblems(filter, 'filter');
    if (problems.length > 0) throw new UnprocessableError(problems);
    const pinned = await this.pin(projectId, [filter], 'filter', id);
    if ('problems' in pinned) throw new UnprocessableError(pinned.problems);
    if (pinned.cycle !== undefined) throw new UnprocessableError([`${pinned.cycle.path}: segment "${name}" would reference itself (${[name, ...pinned.cycle.through].map((each) => JSON.stringify(each)).join(' → ')}): segments may not form a cycle`]);
  }

  /**
   * The segments `targets` name, each at its newest version, and the
   * segments those name, to be pinned in a send (or checked for a save);
   * or the problems (422), each naming the path of the reference. With
   * `self`, also whether a reference leads back to that segment.
   */
  async pin(projectId: string, targets: readonly unknown[], prefix: string, self?: string): Promise<{ segments: PinnedSegment[]; cycle?: { path: string; through: string[] } } | { problems: string[] }> {
    const queue = targets.flatMap((target, at) => segmentReferences(target, targets.length === 1 && prefix === 'filter' ? prefix : `${prefix}[${at}]`).map((found) => ({ ...found, depth: 1, through: [] as string[] })));
    if (queue.length === 0) return { segments: [] };
    const segments = new Map<string, PinnedSegment>();
    const problems: string[] = [];
    let cycle: { path: string; through: string[] } | undefined;
    while (queue.length > 0 && problems.length < 20) {
      const { ref, path, depth, through } = queue.shift()!;
      const id = UUID.test(ref) ? ref.toLowerCase() : segmentIdFor(projectId, ref);
      if (id === self) {
        cycle ??= { path, through: [...through, ref] };
        continue;
      }
      if (segments.has(id)) continue;
      if (depth > MAX_SEGMENT_NESTING) {
        problems.push(`${path}: segments nest deeper than ${MAX_SEGMENT_NESTING} (through ${through.map((each) => JSON.stringify(each)).join(' → ')})`);
        continue;
      }
      const head = await this.#segments.head(projectId, id);
      const version = head === null ? null : await this.#segments.version(projectId, id, undefined);
      if (head === null || version === null) {
        problems.push(`${path}: ${JSON.stringify(ref)} is not a segment of this project${through.length === 0 ? '' : ` (named by segment ${JSON.stringify(through[through.length - 1])})`}`);
        continue;
      }
      if (segments.size >= SEGMENT_QUOTAS.pinnedPerSend) {
        problems.push(`${path}: a send may use at most ${SEGMENT_QUOTAS.pinnedPerSend} segments, nested ones included`);
        break;
      }
      segments.set(id, { id, name: head.name, version: version.version, filter: version.filter as TargetExpression });
      for (const nested of segmentReferences(version.filter, `${path}→${JSON.stringify(head.name)}`)) queue.push({ ...nested, depth: depth + 1, through: [...through, head.name] });
    }
    if (problems.length > 0) return { problems };
    return { segments: [...segments.values()], ...(cycle === undefined ? {} : { cycle }) };
  }

  async list(projectId: string, query: { limit?: number | undefined; page?: number | undefined }): Promise<{ data: SummaryView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    const [count, heads] = await Promise.all([this.#segments.count(projectId), this.#segments.page(projectId, request)]);
    return { data: heads.map(summaryView), pagination: pagination(request, count, heads.length) };
  }

  /** The newest version (or `version`) of a live segment. */
  async get(projectId: string, id: string, version?: number): Promise<VersionView> {
    const head = await this.#head(projectId, id);
    const doc = await this.#segments.version(projectId, id, version);
    if (doc === null) throw new NotFoundError(version === undefined ? `segment ${id} has no saved version yet` : `segment ${id} has no version ${version}`);
    return versionView(head.name, doc);
  }

  /** How many active devices the segment's newest version holds now, as the dry run counts a send to it. */
  async count(projectId: string, id: string): Promise<{ total: number; by_platform: AudienceSize }> {
    await this.#head(projectId, id);
    const target: TargetExpression = { segment: id };
    const pinned = await this.pin(projectId, [target], 'segment');
    if ('problems' in pinned) throw new UnprocessableError(pinned.problems);
    const byPlatform = await audienceSize(this.#readModels, projectId, [target], segmentLookupOf(pinned.segments));
    return { total: audienceTotal(byPlatform), by_platform: byPlatform };
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.#segments.delete(projectId, id, new Date()))) throw notFound(projectId, id);
  }

  async #head(projectId: string, id: string): Promise<SegmentHead> {
    const head = await this.#segments.head(projectId, id);
    if (head === null) throw notFound(projectId, id);
    return head;
  }
}

function notFound(projectId: string, id: string): NotFoundError {
  return new NotFoundError(`segment ${id} does not exist in project ${projectId}`);
}
