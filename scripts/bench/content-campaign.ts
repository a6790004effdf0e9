// `bench:campaign --template …` (issue 48): before the template campaign
// that campaign.ts sends and judges as usual, this saves the templates and
// sends a literal campaign to the same devices, judged the same way, with
// its own phases (`literal-*`), so the two CPU figures per push come from
// one run on one machine load. The fakes' per-device counts are per
// campaign: runCampaign resets the fakes and counts into a fresh bitmap, and
// the literal campaign is `sent` and judged (ledger caught up) before the
// template one is requested, so none of its pushes can land in the second.
import type { BenchArgs } from './args.ts';
import { contentComparison, cpuRatio, templateContent, templateName, wholeCampaignCpuUsPerPush, type ContentPlan } from './content-plan.ts';
import type { Deadline } from './deadline.ts';
import type { BenchInfra } from './infra.ts';
import { judgeRun, type JudgeFigures } from './judge.ts';
import type { PositionReader } from './offsets.ts';
import type { ProcessWatch } from './proc.ts';
import { runCampaign, type CampaignFigures } from './send.ts';
import { buildSummary, type BenchSummary } from './summary.ts';
import type { BenchSystem } from './system.ts';

/** Saves one template per variant (POST /api/v1/templates), each checked by Herald as any template is. */
export async function saveTemplates(baseUrl: string, apiKey: string, plan: ContentPlan): Promise<void> {
  for (let variant = 0; variant < plan.variants; variant += 1) {
    const response = await fetch(`${baseUrl}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: templateName(plan.template, variant), content: templateContent(plan.template, plan.locales, variant) }),
    });
    if (response.status !== 201) throw new Error(`POST /api/v1/templates answered ${response.status}: ${await response.text()}`);
  }
}

export interface LiteralRun {
  figures: CampaignFigures;
  judged?: JudgeFigures;
}

/** The literal campaign: sent, timed at the fakes and judged; phases `literal-to-first` … `literal-judging` (its CPU: `literal-sending`). */
export async function runLiteralCampaign(options: {
  system: BenchSystem;
  infra: BenchInfra;
  positions: PositionReader;
  devices: number;
  /** The run has web devices (--web-share): the fake push service is counted too. */
  web: boolean;
  /** The run has huawei devices (--huawei-share): the fake HMS is counted too. */
  huawei?: boolean;
  deadline: Deadline;
  watch: ProcessWatch;
  run: LiteralRun;
  setPhase: (phase: string) => void;
  progress: (text: string) => void;
}): Promise<void> {
  const { system, watch, run, setPhase } = options;
  const mark = (phase: string) => {
    setPhase(phase);
    watch.mark(phase);
  };
  mark('literal-to-first');
  await runCampaign({
    baseUrl: system.baseUrl,
    apiKey: system.project.apiKey,
    apns: system.apns,
    fcm: system.fcm,
    ...(options.web ? { webpush: system.webpush } : {}),
    ...(options.huawei === true ? { hms: system.hms } : {}),
    devices: options.devices,
    positions: options.positions,
    deadline: options.deadline,
    figures: run.figures,
    progress: options.progress,
    onFirstDelivery: () => mark('literal-sending'),
    onAllDelivered: () => mark('literal-completing'),
  });
  mark('literal-judging');
  const notificationId = run.figures.notificationId;
  if (notificationId !== undefined) {
    run.judged = await judgeRun({ baseUrl: system.baseUrl, apiKey: system.project.apiKey, notificationId, positions: options.positions, infra: options.infra, progress: options.progress });
  }
}

export function emptyFigures(expectedBatches: number): CampaignFigures {
  return { distinct: 0, duplicates: 0, rejected: 0, maxInFlight: { apns: 0, fcm: 0 }, expectedBatches, timeline: [] };
}

/** The literal campaign judged as a campaign run is (every device once, no dead letter, counts = ledger) with its CPU per push. */
export function literalSummary(args: BenchArgs, status: string, run: LiteralRun, phases: ReturnType<ProcessWatch['phases']>): BenchSummary {
  const { figures, judged } = run;
  return buildSummary({
    status: figures.notificationId === undefined && status === 'ok' ? 'not run' : status,
    devices: args.devices,
    deliveryInstances: args.deliveryInstances,
    projectorInstances: args.projectorInstances,
    latencyMs: args.latencyMs,
    partitions: args.partitions,
    ...(figures.lastDeliveryS === undefined ? {} : { lastDeliveryS: figures.lastDeliveryS }),
    ...(figures.firstDeliveryS === undefined ? {} : { firstDeliveryS: figures.firstDeliveryS }),
    distinct: figures.distinct,
    duplicates: figures.duplicates,
    batchesInFlightOnKilled: 0,
    deadLetters: judged?.deadLetters ?? null,
    counts: judged?.counts ?? figures.counts ?? null,
    ledgerCounts: judged?.ledgerCounts ?? null,
    countsMatch: judged?.countsMatch ?? null,
    peakRssBytes: {},
    processPeakRssBytes: {},
    sendingCpuS: phases.find((item) => item.phase === 'literal-sending')?.cpuS ?? {},
    faults: {},
    faultLog: [],
  });
}

/**
 * The template campaign's summary with the literal one's beside it: the run
 * passes only when both campaigns pass their judge; the CPU ratio is the
 * target, reported (template_cpu_target_met), not judged: on a shared
 * machine one run's CPU figures move with the load.
 */
export function withLiteral(summary: BenchSummary, literal: BenchSummary, plan: ContentPlan, phases: ReturnType<ProcessWatch['phases']>) {
  const literalWhole = wholeCampaignCpuUsPerPush(phases, 'literal-', summary.devices);
  const templateWhole = wholeCampaignCpuUsPerPush(phases, '', summary.devices);
  const failures = [...summary.failures, ...literal.failures.map((line) => `literal campaign: ${line}`)];
  return {
    ...summary,
    passed: failures.length === 0,
    failures,
    content: plan,
    ...contentComparison(literal.cpu_us_per_push, summary.cpu_us_per_push),
    literal_campaign_cpu_us_per_push: literalWhole,
    template_campaign_cpu_us_per_push: templateWhole,
    template_campaign_cpu_ratio: cpuRatio(templateWhole, literalWhole),
    literal: {
      passed: literal.passed,
      notifications_per_s: literal.notifications_per_s,
      first_delivery_ms: literal.first_delivery_ms,
      delivered_distinct: literal.delivered_distinct,
      duplicates: literal.duplicates,
      dead_letters: literal.dead_letters,
      counts_match_ledger: literal.counts_match_ledger,
      counts: literal.counts,
    },
  };
}

/** Lines for the printed judge: each campaign's CPU per push by process and the ratio. */
export function comparisonLines(compared: ReturnType<typeof withLiteral>): string[] {
  const fmt = (value: number | null | undefined) => (value === null || value === undefined ? '—' : String(value));
  const groups = Object.keys(compared.template_cpu_us_per_push);
  const row = (label: string, values: Record<string, number | null>) => `  ${label.padEnd(26)} ${groups.map((group) => `${group} ${fmt(values[group])}`).join(', ')}`;
  return [
    `  literal campaign: ${compared.literal.passed ? 'passed' : 'FAILED'}, ${compared.literal.delivered_distinct} distinct, ${compared.literal.duplicates} duplicates, dead letters ${fmt(compared.literal.dead_letters)}, counts = ledger ${String(compared.literal.counts_match_ledger)}`,
    row('literal CPU µs/push', compared.literal_cpu_us_per_push),
    row('template CPU µs/push', compared.template_cpu_us_per_push),
    row('ratio template/literal', { ...compared.template_cpu_ratio_by_process, herald: compared.template_cpu_ratio }),
    `  Herald's own CPU per push (api + projector + delivery): template ${fmt(compared.template_cpu_us_per_push.herald)} vs literal ${fmt(compared.literal_cpu_us_per_push.herald)} µs = ${fmt(compared.template_cpu_ratio)}× (target ≤ ${compared.template_cpu_ratio_target}×: ${compared.template_cpu_target_met === null ? 'not measured' : compared.template_cpu_target_met ? 'met' : 'MISSED'})`,
    `  the same over each whole campaign (POST → sent): template ${fmt(compared.template_campaign_cpu_us_per_push)} vs literal ${fmt(compared.literal_campaign_cpu_us_per_push)} µs = ${fmt(compared.template_campaign_cpu_ratio)}×`,
  ];
}
