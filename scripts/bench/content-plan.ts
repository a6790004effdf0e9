// What `bench:campaign --template …` sends and registers (pure: no I/O):
// the device profiles (locale, first_name metadata), the templates, the
// A/B send's body, and the CPU ratio of the template campaign to the
// literal one sent to the same audience in the same run.
import type { ProcessGroup } from './summary.ts';

/** `personalised`: reads `device.metadata.first_name` (renders per distinct name); `per-locale`: reads no device value (renders once per locale). */
export const TEMPLATE_KINDS = ['personalised', 'per-locale'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export interface ContentPlan {
  template: TemplateKind;
  /** Content locales of each template: `default` plus locales - 1 of LOCALES. */
  locales: number;
  /** 1: a plain template send; 2–5: an A/B send, one template per variant, no holdout, no test (every device takes part). */
  variants: number;
}

/** The content locales after `default`; a device registered with DEFAULT_DEVICE_LOCALE has none of its own and falls back to `default`. */
export const LOCALES = ['fr', 'fr-CA', 'de', 'es', 'it', 'pt-BR', 'ja', 'ko', 'zh-Hant'] as const;
export const DEFAULT_DEVICE_LOCALE = 'en';
export const MAX_LOCALES = LOCALES.length + 1;
/** Distinct first names: a realistic audience repeats names (the renderer's memo works per distinct value set). */
export const FIRST_NAMES = 2_000;
export const VARIANT_NAMES = ['A', 'B', 'C', 'D', 'E'] as const;
/** The target: Herald's own CPU per push for the template campaign at most this times the literal one's. */
export const CPU_RATIO_TARGET = 1.3;
/** Herald's own processes (the others are the infrastructure, the fakes and the benchmark). */
export const HERALD_GROUPS = ['api', 'projector', 'delivery'] as const satisfies readonly ProcessGroup[];

/** The device locales of a run: one per content locale (`en` standing for `default`). */
export function deviceLocales(locales: number): string[] {
  return [DEFAULT_DEVICE_LOCALE, ...LOCALES.slice(0, locales - 1)];
}

/**
 * Device `index`'s registration profile: locales spread round-robin over the
 * content locales; ten devices in eleven carry a first_name (the others get
 * the template's `default: "there"`; 11 is prime to the locale count, so
 * they are spread over every locale).
 */
export function profileFor(index: number, locales: number): { locale: string; metadata?: Record<string, string> } {
  const locale = deviceLocales(locales)[index % locales]!;
  return index % 11 === 10 ? { locale } : { locale, metadata: { first_name: `Name${index % FIRST_NAMES}` } };
}

export function templateName(kind: TemplateKind, variant: number): string {
  return `bench-${kind}-${VARIANT_NAMES[variant]!.toLowerCase()}`;
}

/** One template's content: `default` and locales - 1 more, each variant worded apart. */
export function templateContent(kind: TemplateKind, locales: number, variant: number): Record<string, { title: string; body: string }> {
  const name = VARIANT_NAMES[variant]!;
  const greeting = kind === 'personalised' ? 'Hi {{ device.metadata.first_name | default: "there" }}' : 'Hi';
  const content: Record<string, { title: string; body: string }> = { default: { title: `${greeting} (${name})`, body: 'Order {{ order.id }} is on its way' } };
  for (const locale of LOCALES.slice(0, locales - 1)) content[locale] = { title: `${greeting} (${name}, ${locale})`, body: `[${locale}] Order {{ order.id }}` };
  return content;
}

/** The `notification` of the template campaign's POST (targets added by the caller). */
export function templateNotification(plan: ContentPlan): Record<string, unknown> {
  const variables = { order: { id: 'A-1042' } };
  if (plan.variants === 1) return { template: templateName(plan.template, 0), variables };
  return { variants: Array.from({ length: plan.variants }, (_, variant) => ({ name: VARIANT_NAMES[variant], template: templateName(plan.template, variant), variables })) };
}

/** Herald's own CPU µs per push (api + projector + delivery); null when a group was not measured. */
export function heraldCpuUsPerPush(perPush: Partial<Record<ProcessGroup, number | null>>): number | null {
  let sum = 0;
  for (const group of HERALD_GROUPS) {
    const value = perPush[group];
    if (value === undefined || value === null) return null;
    sum += value;
  }
  return Math.round(sum * 10) / 10;
}

/** template / literal, 3 decimals; null when either is missing or the literal is 0. */
export function cpuRatio(template: number | null | undefined, literal: number | null | undefined): number | null {
  if (template === null || template === undefined || literal === null || literal === undefined || literal <= 0) return null;
  return Math.round((template / literal) * 1000) / 1000;
}

/** The `--json` fields comparing the two campaigns: each process's ratio, and Herald's own against the target. */
export function contentComparison(literal: Record<ProcessGroup, number | null>, template: Record<ProcessGroup, number | null>) {
  const literalOwn = heraldCpuUsPerPush(literal);
  const templateOwn = heraldCpuUsPerPush(template);
  const ratio = cpuRatio(templateOwn, literalOwn);
  return {
    literal_cpu_us_per_push: { ...literal, herald: literalOwn },
    template_cpu_us_per_push: { ...template, herald: templateOwn },
    template_cpu_ratio: ratio,
    template_cpu_ratio_by_process: Object.fromEntries(Object.keys(template).map((group) => [group, cpuRatio(template[group as ProcessGroup], literal[group as ProcessGroup])])) as Record<ProcessGroup, number | null>,
    template_cpu_ratio_target: CPU_RATIO_TARGET,
    template_cpu_target_met: ratio === null ? null : ratio <= CPU_RATIO_TARGET,
  };
}

/** The plan `--template K --locales N --variants V` asks for; undefined without `--template`. Throws a message naming the option. */
export function contentPlanOf(values: { template?: string | undefined; locales?: string | undefined; variants?: string | undefined }): ContentPlan | undefined {
  if (values.template === undefined) {
    if (values.locales !== undefined || values.variants !== undefined) throw new Error('--locales and --variants need --template');
    return undefined;
  }
  if (!(TEMPLATE_KINDS as readonly string[]).includes(values.template)) throw new Error(`--template: '${values.template}' is not one of ${TEMPLATE_KINDS.join(', ')}`);
  const integer = (value: string | undefined, name: string, fallback: number, max: number) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > max) throw new Error(`--${name}: invalid value '${value}' (1..${max})`);
    return parsed;
  };
  return { template: values.template as TemplateKind, locales: integer(values.locales, 'locales', MAX_LOCALES, MAX_LOCALES), variants: integer(values.variants, 'variants', 1, VARIANT_NAMES.length) };
}

/** Phases of one campaign from its POST to `sent` (campaign.ts / content-campaign.ts name the literal one's `literal-…`). */
const CAMPAIGN_PHASES = ['to-first', 'sending', 'completing'] as const;

/**
 * Herald's own CPU µs per push over a whole campaign, POST to `sent`: work
 * done before the first push (a fan-out page's renders) or after the last
 * (reports projected) escapes the `sending` window that cpu_us_per_push
 * covers. Null when a phase is missing.
 */
export function wholeCampaignCpuUsPerPush(phases: ReadonlyArray<{ phase: string; cpuS: Record<string, number> }>, prefix: '' | 'literal-', devices: number): number | null {
  let seconds = 0;
  for (const name of CAMPAIGN_PHASES) {
    const found = phases.find((item) => item.phase === `${prefix}${name}`);
    if (found === undefined) return null;
    for (const group of HERALD_GROUPS) seconds += found.cpuS[group] ?? 0;
  }
  return devices <= 0 ? null : Math.round((seconds * 1e6 * 10) / devices) / 10;
}
