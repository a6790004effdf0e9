import { targetProblems } from '@herald/audience';
import type { PinnedSegment, PinnedTemplate, SplitVariant } from '@herald/events';
import { variableProblems } from '../domain/template-send.ts';
import type { NotificationInput } from '../domain/notification-request.ts';
import type { SegmentService } from './segment-service.ts';
import type { TemplateService } from './template-service.ts';

/**
 * What a send names by reference, resolved once when it is accepted: the
 * template version (or each A/B variant's), and the saved segments its
 * targets name. The event carries the pinned versions, so a later edit of a
 * template or segment never changes a send already accepted.
 */
export class SendPinning {
  readonly #templates: Pick<TemplateService, 'pin'> | undefined;
  readonly #segments: Pick<SegmentService, 'pin'> | undefined;

  constructor(deps: { templates?: Pick<TemplateService, 'pin'> | undefined; segments?: Pick<SegmentService, 'pin'> | undefined }) {
    this.#templates = deps.templates;
    this.#segments = deps.segments;
  }

  /** Resolves a template send's template (none for a literal send): the version to pin, or its problems. */
  async content(projectId: string, input: NotificationInput): Promise<{ template?: PinnedTemplate; variants?: SplitVariant[]; problems: string[] }> {
    if (Array.isArray(input?.variants)) return this.#variants(projectId, input.variants);
    // A malformed template or variables field is the schema's to report (its problems are listed with these).
    if (typeof input?.template !== 'string') return { problems: [] };
    if (input.variables !== undefined && (typeof input.variables !== 'object' || input.variables === null || Array.isArray(input.variables))) return { problems: [] };
    const malformed = variableProblems(input.variables);
    if (malformed.length > 0) return { problems: malformed };
    if (this.#templates === undefined) return { problems: ['notification.template: templates are not available on this API'] };
    const pinned = await this.#templates.pin(projectId, input.template, input.variables ?? {});
    return 'template' in pinned ? { template: pinned.template, problems: [] } : { problems: pinned.problems };
  }

  /** An A/B send's variants as its event carries them: each template variant's version pinned (its problems named under its index). */
  async #variants(projectId: string, variants: NonNullable<NotificationInput['variants']>): Promise<{ variants?: SplitVariant[]; problems: string[] }> {
    const pinned: SplitVariant[] = [];
    const problems: string[] = [];
    for (const [index, variant] of variants.entries()) {
      // A variant that is no object is named by the schema's problems; there is nothing here to pin.
      if (typeof variant !== 'object' || variant === null) continue;
      const { template, variables, ...literal } = variant;
      if (typeof template !== 'string') {
        pinned.push(literal);
        continue;
      }
      const one = await this.content(projectId, { template, ...(variables === undefined ? {} : { variables }) } as NotificationInput);
      problems.push(...one.problems.map((problem) => problem.replace(/^notification\./, `notification.variants[${index}].`)));
      if (one.template !== undefined) pinned.push({ name: variant.name, template: one.template });
    }
    return problems.length > 0 ? { problems } : { variants: pinned, problems };
  }

  /**
   * The saved segments the targets name, each at its newest version (and
   * the segments those name), to pin in the send; or their problems (422,
   * naming the path). No store read for targets that name no segment.
   */
  async segments(projectId: string, input: NotificationInput): Promise<{ segments: PinnedSegment[]; problems: string[] }> {
    if (!Array.isArray(input?.targets) || this.#segments === undefined) return { segments: [], problems: [] };
    // A malformed target is targetProblems' to report; its segments are not looked up.
    if (targetProblems(input.targets).length > 0) return { segments: [], problems: [] };
    const pinned = await this.#segments.pin(projectId, input.targets, 'notification.targets');
    return 'problems' in pinned ? { segments: [], problems: pinned.problems } : { segments: pinned.segments, problems: [] };
  }
}
