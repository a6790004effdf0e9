import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.ts';
import { contentComparison, contentPlanOf, cpuRatio, deviceLocales, heraldCpuUsPerPush, profileFor, templateContent, templateNotification, wholeCampaignCpuUsPerPush } from './content-plan.ts';
import type { ProcessGroup } from './summary.ts';

const perPush = (values: Partial<Record<ProcessGroup, number | null>>): Record<ProcessGroup, number | null> => ({ api: 0, projector: 0, delivery: 0, kafka: 0, store: 0, fakes: 0, bench: 0, ...values });

describe('content plan arguments', () => {
  it('reads --template, --locales and --variants, with 10 locales and 1 variant by default', () => {
    expect(parseBenchArgs(['--template', 'personalised', '--locales', '10', '--variants', '2']).content).toEqual({ template: 'personalised', locales: 10, variants: 2 });
    expect(parseBenchArgs(['--template', 'per-locale']).content).toEqual({ template: 'per-locale', locales: 10, variants: 1 });
    expect(parseBenchArgs([]).content).toBeUndefined();
  });

  it('names the option that is wrong', () => {
    expect(() => contentPlanOf({ template: 'fancy' })).toThrow(/--template: 'fancy'/);
    expect(() => contentPlanOf({ template: 'personalised', locales: '11' })).toThrow(/--locales: invalid value '11'/);
    expect(() => contentPlanOf({ template: 'personalised', variants: '6' })).toThrow(/--variants: invalid value '6'/);
    expect(() => contentPlanOf({ template: 'personalised', variants: '1.5' })).toThrow(/--variants/);
    expect(() => contentPlanOf({ locales: '3' })).toThrow(/need --template/);
  });

  it('refuses faults and steering with --template (they would fall on one campaign only)', () => {
    expect(() => parseBenchArgs(['--template', 'personalised', '--kill-delivery-at', '30'])).toThrow(/--template compares two unsteered campaigns/);
    expect(() => parseBenchArgs(['--template', 'personalised', '--rate-per-minute', '6000'])).toThrow(/unsteered/);
    expect(() => parseBenchArgs(['--template', 'personalised', '--transactional-during'])).toThrow(/unsteered/);
  });
});

describe('locale spread and profiles', () => {
  it('spreads devices evenly over default (en) and the other locales', () => {
    expect(deviceLocales(3)).toEqual(['en', 'fr', 'fr-CA']);
    const counts = new Map<string, number>();
    for (let index = 0; index < 1000; index += 1) counts.set(profileFor(index, 10).locale, (counts.get(profileFor(index, 10).locale) ?? 0) + 1);
    expect(counts.size).toBe(10);
    expect([...counts.values()].every((n) => n === 100)).toBe(true);
    expect(deviceLocales(10)).toHaveLength(10);
  });

  it('gives ten devices in eleven a first_name, from a pool of repeated names, and the others in every locale', () => {
    const profiles = Array.from({ length: 1100 }, (_, index) => profileFor(index, 10));
    expect(profiles.filter((profile) => profile.metadata?.first_name !== undefined)).toHaveLength(1000);
    expect(new Set(profiles.filter((profile) => profile.metadata === undefined).map((profile) => profile.locale)).size).toBe(10);
    expect(profileFor(0, 10).metadata).toEqual({ first_name: 'Name0' });
    expect(profileFor(2000, 10).metadata).toEqual({ first_name: 'Name0' });
    expect(profileFor(10, 10)).toEqual({ locale: 'en' });
  });
});

describe('templates and the send', () => {
  it('writes default + locales - 1 contents; personalised reads the first_name with a default', () => {
    const content = templateContent('personalised', 10, 1);
    expect(Object.keys(content)).toEqual(['default', 'fr', 'fr-CA', 'de', 'es', 'it', 'pt-BR', 'ja', 'ko', 'zh-Hant']);
    expect(content.default!.title).toBe('Hi {{ device.metadata.first_name | default: "there" }} (B)');
    expect(templateContent('per-locale', 2, 0).fr!.title).not.toContain('device');
  });

  it('sends an A/B send of one template per variant, or a plain template send', () => {
    expect(templateNotification({ template: 'personalised', locales: 10, variants: 2 })).toEqual({
      variants: [
        { name: 'A', template: 'bench-personalised-a', variables: { order: { id: 'A-1042' } } },
        { name: 'B', template: 'bench-personalised-b', variables: { order: { id: 'A-1042' } } },
      ],
    });
    expect(templateNotification({ template: 'per-locale', locales: 1, variants: 1 })).toEqual({ template: 'bench-per-locale-a', variables: { order: { id: 'A-1042' } } });
  });
});

describe('the CPU ratio', () => {
  it("sums Herald's own processes only, and is null when one was not measured", () => {
    expect(heraldCpuUsPerPush(perPush({ api: 1, projector: 10, delivery: 40, kafka: 99, fakes: 50 }))).toBe(51);
    expect(heraldCpuUsPerPush(perPush({ delivery: null }))).toBeNull();
  });

  it('divides template by literal, null without a literal figure', () => {
    expect(cpuRatio(65, 50)).toBe(1.3);
    expect(cpuRatio(1, 3)).toBe(0.333);
    expect(cpuRatio(10, 0)).toBeNull();
    expect(cpuRatio(null, 10)).toBeNull();
  });

  it('reports each process and whether the target is met', () => {
    const compared = contentComparison(perPush({ api: 1, projector: 9, delivery: 40, kafka: 20 }), perPush({ api: 1, projector: 9, delivery: 56, kafka: 10 }));
    expect(compared.literal_cpu_us_per_push.herald).toBe(50);
    expect(compared.template_cpu_us_per_push.herald).toBe(66);
    expect(compared.template_cpu_ratio).toBe(1.32);
    expect(compared.template_cpu_target_met).toBe(false);
    expect(compared.template_cpu_ratio_by_process.delivery).toBe(1.4);
    expect(compared.template_cpu_ratio_by_process.kafka).toBe(0.5);
    expect(compared.template_cpu_ratio_by_process.store).toBeNull();
  });
});

describe('the whole-campaign CPU figure', () => {
  const phase = (name: string, delivery: number) => ({ phase: name, cpuS: { api: 0.1, projector: 0.2, delivery, kafka: 5 } });
  it("sums Herald's own processes over to-first, sending and completing of the campaign named by the prefix", () => {
    const phases = [phase('literal-to-first', 1), phase('literal-sending', 2), phase('literal-completing', 0.7), phase('to-first', 1), phase('sending', 3), phase('completing', 1), phase('judging', 9)];
    // (0.3 × 3 + 3.7) s over 100,000 pushes
    expect(wholeCampaignCpuUsPerPush(phases, 'literal-', 100_000)).toBe(46);
    expect(wholeCampaignCpuUsPerPush(phases, '', 100_000)).toBe(59);
    expect(wholeCampaignCpuUsPerPush(phases.slice(0, 2), 'literal-', 100_000)).toBeNull();
  });
});
