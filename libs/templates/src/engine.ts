import { Liquid, type Template } from 'liquidjs';
import { TEMPLATE_LIMITS } from './content.ts';

/** The tags that would read other templates (files, or a `templates` map): refused when a template is parsed. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;

/**
 * The one Liquid engine templates run on: strict (an unknown variable or
 * filter is an error, not an empty string), own properties only (no
 * prototype reads), no file access (`include`, `render` and `layout` are
 * refused at parse; the `templates` map is empty and relative paths are
 * off, so even a tag missed here finds nothing), bounded (parse length,
 * render time and objects made per render). `lenientIf` keeps
 * `{{ x | default: "…" }}` and `{% if x %}` working on a missing value:
 * those are how a template says a value is optional.
 */
function createEngine(): Liquid {
  const engine = new Liquid({
    strictVariables: true,
    strictFilters: true,
    lenientIf: true,
    ownPropertyOnly: true,
    relativeReference: false,
    dynamicPartials: false,
    templates: {},
    cache: false,
    parseLimit: TEMPLATE_LIMITS.fieldSource,
    renderLimit: TEMPLATE_LIMITS.renderMs,
    memoryLimit: TEMPLATE_LIMITS.renderMemory,
  });
  for (const name of FILE_TAGS) {
    engine.registerTag(name, {
      parse() {
        throw new Error(`the ${name} tag is not available: a template cannot read other templates or files`);
      },
      *render() {},
    });
  }
  return engine;
}

export const engine = createEngine();

/** A Liquid error's line in the field's source, when it has one. */
export function errorLine(error: unknown): number | undefined {
  const token = (error as { token?: { getPosition?: () => [number, number] } }).token;
  const position = token?.getPosition?.();
  return position === undefined ? undefined : position[0];
}

/** The message without liquidjs's `, line:2, col:10` tail (the problem carries the line itself). */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/, line:\d+, col:\d+$/, '').split('\n')[0] ?? message;
}

export function parse(source: string): Template[] {
  return engine.parse(source);
}

/**
 * The paths a template reads from its scope, each as its segments
 * (`device.metadata.first_name` → ['device', 'metadata', 'first_name']); a
 * segment computed at render (`device.metadata[key]`) ends the path there.
 */
export function readPaths(template: Template[]): string[][] {
  return engine.globalVariableSegmentsSync(template).map((segments) => {
    const path: string[] = [];
    for (const segment of segments) {
      if (typeof segment !== 'string' && typeof segment !== 'number') break;
      path.push(String(segment));
    }
    return path;
  });
}

export function renderSync(template: Template[], scope: object): string {
  return String(engine.renderSync(template, scope));
}
