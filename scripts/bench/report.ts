import { cpus, loadavg } from 'node:os';
import type { CeilingResult } from './ceiling.ts';
import type { ProcessWatch } from './proc.ts';
import type { CampaignFigures } from './send.ts';

export interface BenchResult {
  status: 'ok' | 'timeout' | 'error' | 'interrupted';
  error?: string;
  /** The last progress of the phase under way (useful when the run ends early). */
  reached?: string;
  devices: number;
  ios: number;
  android: number;
  /** Browsers (--web-share), sent to the fake push service. */
  web?: number;
  /** Huawei devices (--huawei-share), sent to the fake HMS Push Kit. */
  huawei?: number;
  latencyMs: number;
  partitions: number;
  infra: string;
  machine: { node: string; cpus: number; cpuModel: string; loadavg1AtStart: number };
  publish?: { seconds: number; rate: number };
  /** From the first publish to N documents in the devices read model (projection runs while publishing). */
  projection?: { seconds: number; rate: number; tailAfterPublishS: number; countS: number };
  /** The delivery instances' audience indexes: first publish → every partition applied the device-events ends; peak resident pages of the index's file mappings. */
  /** restartS: a restart from the checkpoint, start → ready to fan out (`--restart-delivery`); restartStopS: the old instances' drain. */
  index?: { buildS?: number; rssBytes?: number; restartS?: number; restartStopS?: number };
  campaign: CampaignFigures;
  notificationsPerSecond?: number;
  ceiling?: CeilingResult;
  /** The same client against an HTTP/2 server without the fake's checks. */
  bareCeiling?: CeilingResult;
  fractionOfCeiling?: number;
  peakRssMB: Record<string, number | null>;
  /** The largest single process of each group (several delivery instances: what each needs). */
  processPeakRssMB?: Record<string, number | null>;
  phases: ReturnType<ProcessWatch['phases']>;
  deliveryMetrics?: Record<string, { sendCalls: number; avgSendS: number; outcomes: Record<string, number> }>;
}

export function machineInfo(): BenchResult['machine'] {
  const list = cpus();
  return { node: process.version, cpus: list.length, cpuModel: list[0]?.model ?? 'unknown', loadavg1AtStart: loadavg()[0] ?? 0 };
}

/** Sums of a few families from a Prometheus text page, by the `provider` / `outcome` labels. */
export function parseDeliveryMetrics(text: string): NonNullable<BenchResult['deliveryMetrics']> {
  const out: NonNullable<BenchResult['deliveryMetrics']> = {};
  const entry = (provider: string) => (out[provider] ??= { sendCalls: 0, avgSendS: 0, outcomes: {} });
  const sums: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^(herald_provider_send_duration_seconds_(?:sum|count)|herald_deliveries_total)\{([^}]*)\} ([0-9.e+-]+)$/.exec(line);
    if (match === null) continue;
    const labels = new Map([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((label): [string, string] => [label[1]!, label[2]!]));
    const provider = labels.get('provider') ?? '?';
    const value = Number(match[3]);
    if (match[1] === 'herald_deliveries_total') entry(provider).outcomes[labels.get('outcome') ?? '?'] = value;
    else if (match[1]!.endsWith('_count')) entry(provider).sendCalls = value;
    else sums[provider] = value;
  }
  for (const [provider, item] of Object.entries(out)) item.avgSendS = item.sendCalls === 0 ? 0 : (sums[provider] ?? 0) / item.sendCalls;
  return out;
}

const int = (value: number) => Math.round(value).toLocaleString('en-US');
const secs = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(2)} s`);
const rate = (value: number | undefined) => (value === undefined ? '—' : `${int(value)} /s`);

/** The devices by platform; web and huawei only when the run had them. */
function devicesRow(result: BenchResult): [string, string] {
  const parts: Array<[string, number]> = [['iOS', result.ios], ['Android', result.android]];
  if ((result.web ?? 0) > 0) parts.push(['web', result.web!]);
  if ((result.huawei ?? 0) > 0) parts.push(['huawei', result.huawei!]);
  return [`devices (${parts.map(([name]) => name).join(' / ')})`, `${int(result.devices)} (${parts.map(([, count]) => int(count)).join(' / ')})`];
}

/** Peak requests in flight at each fake the run used (a Push Kit request carries up to 1,000 tokens). */
function inFlightRow(max: BenchResult['campaign']['maxInFlight']): [string, string] {
  const parts: Array<[string, number]> = [['APNs', max.apns], ['FCM', max.fcm]];
  if (max.webpush !== undefined) parts.push(['Web Push', max.webpush]);
  if (max.hms !== undefined) parts.push(['HMS', max.hms]);
  return [`max requests in flight at fakes (${parts.map(([name]) => name).join(' / ')})`, parts.map(([, count]) => String(count)).join(' / ')];
}

export function formatTable(result: BenchResult): string {
  const c = result.campaign;
  const rows: Array<[string, string]> = [
    ['status', result.status + (result.error === undefined ? '' : ` — ${result.error}`)],
    ...(result.status === 'ok' || result.reached === undefined ? [] : [['reached', result.reached] as [string, string]]),
    devicesRow(result),
    ['machine', `${result.machine.cpus} CPU (${result.machine.cpuModel}), node ${result.machine.node}, load avg at start ${result.machine.loadavg1AtStart.toFixed(2)}`],
    ['infra / partitions / fake latency', `${result.infra} / ${result.partitions} / ${result.latencyMs} ms`],
    ['publish (DeviceRegistered → Kafka)', result.publish === undefined ? '—' : `${rate(result.publish.rate)}  (${secs(result.publish.seconds)})`],
    [
      'projection (publish start → group caught up)',
      result.projection === undefined ? '—' : `${rate(result.projection.rate)}  (${secs(result.projection.seconds)}; ${secs(result.projection.tailAfterPublishS)} after publish ended; count ${secs(result.projection.countS)})`,
    ],
    ['audience index built (publish start → ends applied)', secs(result.index?.buildS)],
    ...(result.index?.restartS === undefined ? [] : [['delivery restarted on its checkpoint: start → ready to fan out', secs(result.index.restartS)] as [string, string]]),
    ['audience index file mappings resident (peak)', result.index?.rssBytes === undefined ? '—' : `${(result.index.rssBytes / 1024 / 1024).toFixed(1)} MB`],
    ['POST /notifications answered', secs(c.requestS)],
    ['time to first delivery', secs(c.firstDeliveryS)],
    ['fan-out: all batches queued (±1 s)', c.fanoutDoneS === undefined ? '—' : `${secs(c.fanoutDoneS)} (${int(c.expectedBatches)} batches)`],
    ['time to last delivery (N-th device)', secs(c.lastDeliveryS)],
    ['NOTIFICATIONS/S END TO END', rate(result.notificationsPerSecond)],
    ['time to read model `sent`', secs(c.completedS)],
    ['delivered distinct / duplicates / rejected', `${int(c.distinct)} / ${int(c.duplicates)} / ${int(c.rejected)}`],
    ['counts at the end', c.counts === undefined ? '—' : JSON.stringify(c.counts)],
    inFlightRow(c.maxInFlight),
    [
      `raw HTTP/2 ceiling (fake APNs, ${result.ceiling?.client ?? '?'} client)`,
      result.ceiling === undefined
        ? '—'
        : `${rate(result.ceiling.rate)}  (${int(result.ceiling.ok)} ok, ${int(result.ceiling.failed)} failed in ${secs(result.ceiling.seconds)}; client CPU ${result.ceiling.cpuSeconds.toFixed(1)} s)`,
    ],
    [
      'raw HTTP/2 vs bare h2 server (no checks)',
      result.bareCeiling === undefined ? '—' : `${rate(result.bareCeiling.rate)}  (${int(result.bareCeiling.ok)} ok in ${secs(result.bareCeiling.seconds)}; client CPU ${result.bareCeiling.cpuSeconds.toFixed(1)} s)`,
    ],
    ['campaign as fraction of ceiling', result.fractionOfCeiling === undefined ? '—' : `${(100 * result.fractionOfCeiling).toFixed(1)} %`],
  ];
  for (const [name, bytes] of Object.entries(result.peakRssMB)) {
    const largest = result.processPeakRssMB?.[name];
    const largestOfSeveral = largest === undefined || largest === null || bytes === null || largest >= bytes ? '' : ` (largest process ${largest.toFixed(0)} MB)`;
    rows.push([`peak RSS ${name}`, bytes === null ? '—' : `${bytes.toFixed(0)} MB${largestOfSeveral}`]);
  }
  for (const [provider, item] of Object.entries(result.deliveryMetrics ?? {})) {
    rows.push([`delivery ${provider}: send calls / avg`, `${int(item.sendCalls)} / ${(item.avgSendS * 1000).toFixed(0)} ms  ${JSON.stringify(item.outcomes)}`]);
  }
  const sending = result.phases.find((phase) => phase.phase === 'sending');
  if (sending !== undefined && c.lastDeliveryS !== undefined) {
    // What one notification costs each process while batches flow (first → last delivery).
    const perNotification = Object.entries(sending.cpuS)
      .sort(([, a], [, b]) => b - a)
      .map(([name, seconds]) => `${name} ${Math.round((seconds / result.devices) * 1e6)}`);
    rows.push(['CPU µs per notification while sending', perNotification.join(', ')]);
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`);

  lines.push(...formatPhases(result.phases, result.machine.cpus));
  return `${lines.join('\n')}\n`;
}

/** Where the cores went, per phase: CPU seconds per process group (2 cores = 2 CPU-s per wall second), and what the rest of the machine used. */
export function formatPhases(phases: ReturnType<ProcessWatch['phases']>, cpus: number): string[] {
  const names = [...new Set(phases.flatMap((phase) => Object.keys(phase.cpuS)))];
  if (phases.length === 0) return [];
  // As wide as the longest phase name (`literal-completing` with --template).
  const width = Math.max(12, ...phases.map((phase) => phase.phase.length));
  const lines = ['', `  CPU seconds per phase (${cpus} cores)`];
  const head = ['phase'.padEnd(width), 'wall s'.padStart(7), ...names.map((name) => name.padStart(9)), 'others'.padStart(7), 'busy %'.padStart(7)];
  lines.push(`  ${head.join(' ')}`);
  for (const phase of phases) {
    const cells = [
      phase.phase.padEnd(width),
      phase.wallS.toFixed(1).padStart(7),
      ...names.map((name) => (phase.cpuS[name] === undefined ? '—' : phase.cpuS[name].toFixed(1)).padStart(9)),
      (phase.otherCpuS === null ? '—' : phase.otherCpuS.toFixed(1)).padStart(7),
      (phase.machineBusyPct === null ? '—' : phase.machineBusyPct.toFixed(0)).padStart(7),
    ];
    lines.push(`  ${cells.join(' ')}`);
  }
  return lines;
}

export function formatTimeline(result: BenchResult): string {
  const { timeline } = result.campaign;
  if (timeline.length === 0) return '';
  const step = Math.max(1, Math.ceil(timeline.length / 30));
  const lines = ['  campaign timeline (t s: pushes accepted, distinct devices, duplicates, batches done/queued, notification-events lag notifications/ledger, status)'];
  for (let i = 0; i < timeline.length; i += step) {
    const p = timeline[i]!;
    lines.push(`  ${p.t.toFixed(0).padStart(5)}: ${String(p.delivered).padStart(9)} ${String(p.distinct).padStart(9)} ${String(p.duplicates).padStart(7)}  ${p.batchesDone}/${p.batchesQueued}  lag ${p.notificationsLag}/${p.ledgerLag}  ${p.status}`);
  }
  return `${lines.join('\n')}\n`;
}
