// What `bench:transactional` prints: the JSON summary (pure) and the table.
import type { ProcessWatch } from './proc.ts';
import { formatPhases } from './report.ts';
import type { ProcessGroup } from './summary.ts';
import { cpuPerNotification, roundOrNull, sendFigures, transactionalVerdict, type JudgeInput } from './transactional-stats.ts';
import type { LoadFigures } from './transactional-load.ts';

type Phases = ReturnType<ProcessWatch['phases']>;

/** One sample of the send phase: seconds since it began, POSTs answered, sends delivered, each stage's backlog (records not committed). */
export interface StageSample {
  t: number;
  answered: number;
  delivered: number;
  lags?: Record<'coordinator' | 'tasks' | 'apns' | 'fcm' | 'apnsExpress' | 'fcmExpress' | 'notifications' | 'ledger', number>;
}

/** The send phase's samples, at most 30 lines: where the backlog sat says which stage bounded the rate. */
export function formatStageTimeline(samples: readonly StageSample[]): string {
  if (samples.length === 0) return '';
  const step = Math.max(1, Math.ceil(samples.length / 30));
  const lines = ['', '  send phase (t s: POSTs answered, delivered; backlog: coordinator, tasks, apns/fcm express, apns/fcm, notifications/ledger projections)'];
  for (let i = 0; i < samples.length; i += step) {
    const { t, answered, delivered, lags } = samples[i]!;
    const backlog = lags === undefined ? '?' : `${lags.coordinator}, ${lags.tasks}, ${lags.apnsExpress}/${lags.fcmExpress}, ${lags.apns}/${lags.fcm}, ${lags.notifications}/${lags.ledger}`;
    lines.push(`  ${t.toFixed(0).padStart(5)}: ${String(answered).padStart(7)} ${String(delivered).padStart(7)}   ${backlog}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What `--json` prints as the last line of stdout. Times in ms, rates per second, CPU in ms per notification; null when not reached. */
export interface TransactionalSummary {
  status: string;
  passed: boolean;
  failures: string[];
  sends: number;
  /** Closed loop: POSTs in flight; null in open loop. */
  concurrency: number | null;
  /** Open loop: POSTs started per second; null in closed loop. */
  rate_offered: number | null;
  stored: number;
  partitions: number;
  post_per_s: number | null;
  post_p50_ms: number | null;
  post_p99_ms: number | null;
  post_errors: number;
  /** Sends / (last first-delivery − first POST start). */
  notifications_per_s: number | null;
  /** Per send: its POST start (open loop: when it was due) → the fake accepted its device's push. */
  delivered_p50_ms: number | null;
  delivered_p99_ms: number | null;
  /** Over the sends started 2 s or more after the first (transactional-stats.ts WARM_UP_MS). */
  warm_delivered_p50_ms: number | null;
  warm_delivered_p99_ms: number | null;
  delivered_max_ms: number | null;
  delivered_distinct: number;
  duplicates: number;
  rejected: number;
  dead_letters: number | null;
  counts_checked: number;
  counts_mismatched: number | null;
  ledger_delivered: number | null;
  /** CPU ms per notification by group while sending (first POST → last delivery), and Herald's own sum (api + projector + delivery + kafka + store). */
  cpu_ms_per_notification: Record<ProcessGroup, number | null>;
  herald_cpu_ms_per_notification: number | null;
  /** The same from the first POST until the notifications and ledger projections had caught up (all the sends cost). */
  cpu_ms_per_notification_to_projected: Record<ProcessGroup, number | null>;
  herald_cpu_ms_per_notification_to_projected: number | null;
  /** CPU seconds the rest of the machine used while sending (a disturbed run shows here). */
  others_cpu_s_sending: number | null;
  peak_rss_mb: Record<string, number | null>;
  index_build_ms: number | null;
  index_rss_mb: number | null;
  open_loop_max_start_lag_ms: number | null;
}

export interface TransactionalInput {
  status: string;
  sends: number;
  concurrency: number;
  rate: number | undefined;
  stored: number;
  partitions: number;
  load: LoadFigures;
  rejected: number;
  judge: Omit<JudgeInput, 'status' | 'sends' | 'postErrors' | 'distinct' | 'duplicates' | 'rejected'>;
  phases: Phases;
  peakRssBytes: Record<string, number | null>;
  indexBuildS?: number;
  indexRssBytes?: number;
}

const cpuOf = (phases: Phases, names: readonly string[]) => {
  const out: Record<string, number> = {};
  for (const phase of phases.filter((item) => names.includes(item.phase))) for (const [group, seconds] of Object.entries(phase.cpuS)) out[group] = (out[group] ?? 0) + seconds;
  return out;
};

export function buildTransactionalSummary(input: TransactionalInput): TransactionalSummary {
  const { load } = input;
  const figures = sendFigures(load);
  const failures = transactionalVerdict({ ...input.judge, status: input.status, sends: input.sends, postErrors: load.postErrors, distinct: load.distinct, duplicates: load.duplicates, rejected: input.rejected });
  const sending = cpuPerNotification(cpuOf(input.phases, ['sending']), input.sends);
  const toProjected = cpuPerNotification(cpuOf(input.phases, ['sending', 'completing']), input.sends);
  return {
    status: input.status,
    passed: failures.length === 0,
    failures,
    sends: input.sends,
    concurrency: input.rate === undefined ? input.concurrency : null,
    rate_offered: input.rate ?? null,
    stored: input.stored,
    partitions: input.partitions,
    post_per_s: roundOrNull(figures.postPerS),
    post_p50_ms: roundOrNull(figures.postP50Ms, 1),
    post_p99_ms: roundOrNull(figures.postP99Ms, 1),
    post_errors: load.postErrors,
    notifications_per_s: roundOrNull(figures.notificationsPerS),
    delivered_p50_ms: roundOrNull(figures.deliveredP50Ms, 1),
    delivered_p99_ms: roundOrNull(figures.deliveredP99Ms, 1),
    warm_delivered_p50_ms: roundOrNull(figures.warmDeliveredP50Ms, 1),
    warm_delivered_p99_ms: roundOrNull(figures.warmDeliveredP99Ms, 1),
    delivered_max_ms: roundOrNull(figures.deliveredMaxMs, 1),
    delivered_distinct: load.distinct,
    duplicates: load.duplicates,
    rejected: input.rejected,
    dead_letters: input.judge.deadLetters,
    counts_checked: input.judge.countsChecked,
    counts_mismatched: input.judge.countsMismatched,
    ledger_delivered: input.judge.ledgerDelivered,
    cpu_ms_per_notification: sending.byGroup,
    herald_cpu_ms_per_notification: sending.herald,
    cpu_ms_per_notification_to_projected: toProjected.byGroup,
    herald_cpu_ms_per_notification_to_projected: toProjected.herald,
    others_cpu_s_sending: roundOrNull(input.phases.find((phase) => phase.phase === 'sending')?.otherCpuS, 1),
    peak_rss_mb: Object.fromEntries(Object.entries(input.peakRssBytes).map(([group, bytes]) => [group, bytes === null ? null : roundOrNull(bytes / 1024 / 1024, 1)])),
    index_build_ms: roundOrNull(input.indexBuildS === undefined ? undefined : input.indexBuildS * 1000),
    index_rss_mb: roundOrNull(input.indexRssBytes === undefined ? undefined : input.indexRssBytes / 1024 / 1024, 1),
    open_loop_max_start_lag_ms: input.rate === undefined ? null : roundOrNull(load.maxStartLagMs, 1),
  };
}

const show = (value: number | null, unit = '') => (value === null ? '—' : `${value.toLocaleString('en-US')}${unit}`);
const cpuLine = (byGroup: Record<string, number | null>, herald: number | null) =>
  `Herald ${show(herald)} (${Object.entries(byGroup)
    .filter((entry): entry is [string, number] => entry[1] !== null)
    .sort(([, a], [, b]) => b - a)
    .map(([group, ms]) => `${group} ${ms}`)
    .join(', ')})`;

export function formatTransactional(summary: TransactionalSummary, extra: { error?: string; reached?: string; machine: string; infra: string; publish?: string; stored?: string; maxInFlight: number; phases: Phases; cpus: number }): string {
  const rows: Array<[string, string]> = [
    ['status', summary.status + (extra.error === undefined ? '' : ` — ${extra.error}`)],
    ...(summary.status === 'ok' || extra.reached === undefined ? [] : [['reached', extra.reached] as [string, string]]),
    ['sends (one device each, iOS/Android alternating)', `${summary.sends.toLocaleString('en-US')}, ${summary.rate_offered === null ? `closed loop, ${summary.concurrency} in flight` : `open loop, ${summary.rate_offered}/s offered`}`],
    ['machine', extra.machine],
    ['infra / partitions', `${extra.infra} / ${summary.partitions}`],
    ['stored before the sends', `${summary.stored.toLocaleString('en-US')}${extra.stored === undefined ? '' : ` (${extra.stored})`}`],
    ['registration (publish; projection)', extra.publish ?? '—'],
    ['audience index built (publish start → ends applied)', show(summary.index_build_ms, ' ms')],
    ['audience index file mappings resident (peak)', show(summary.index_rss_mb, ' MB')],
    ['POSTs answered /s (p50 / p99 ms)', `${show(summary.post_per_s)} (${show(summary.post_p50_ms)} / ${show(summary.post_p99_ms)}); ${summary.post_errors} errors; max in flight ${extra.maxInFlight}`],
    ['NOTIFICATIONS/S END TO END (first POST → last delivery)', show(summary.notifications_per_s)],
    ['request → delivered p50 / p99 / max (ms)', `${show(summary.delivered_p50_ms)} / ${show(summary.delivered_p99_ms)} / ${show(summary.delivered_max_ms)}`],
    ['… of the sends after the first 2 s (warm) p50 / p99 (ms)', `${show(summary.warm_delivered_p50_ms)} / ${show(summary.warm_delivered_p99_ms)}`],
    ...(summary.open_loop_max_start_lag_ms === null ? [] : [['open loop: latest POST start after due', show(summary.open_loop_max_start_lag_ms, ' ms')] as [string, string]]),
    ['delivered distinct / duplicates / rejected', `${summary.delivered_distinct} / ${summary.duplicates} / ${summary.rejected}`],
    ['CPU ms per notification while sending', cpuLine(summary.cpu_ms_per_notification, summary.herald_cpu_ms_per_notification)],
    ['… until the projections caught up', cpuLine(summary.cpu_ms_per_notification_to_projected, summary.herald_cpu_ms_per_notification_to_projected)],
    ['others (rest of the machine) while sending', show(summary.others_cpu_s_sending, ' CPU-s')],
    ['peak RSS (MB)', Object.entries(summary.peak_rss_mb).map(([group, mb]) => `${group} ${show(mb)}`).join(', ')],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return `${[...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`), ...formatPhases(extra.phases, extra.cpus)].join('\n')}\n`;
}
