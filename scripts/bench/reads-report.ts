import { cpus, loadavg } from 'node:os';
import type { LoadResult } from './reads-load.ts';

/** The read benchmark's figures (the JSON line is this object). */
export interface ReadsSummary {
  status: 'ok' | 'error' | 'timeout';
  error?: string;
  devices: number;
  projects: number;
  notifications: number;
  infra: string;
  machine: { cpus: number; cpuModel: string; loadavg1AtStart: number; loadavg1AtEnd?: number };
  seeding?: { events: number; publishS: number; projectedS: number; perSecond: number };
  /** Anonymous POST /api/v1/devices with `inFlight` in flight, once `storedBefore` devices were stored. */
  registration?: { storedBefore: number; registered: number; errors: number; firstError?: string; inFlight: number; perSecond: number; p50Ms: number; p99Ms: number; storeCpuUs: number; apiCpuUs: number };
  /** Every project's device and notification totals as the API lists them, against what was seeded. */
  countsMatch?: boolean;
  countProblems?: string[];
  reads: LoadResult[];
  clients: number;
  /** The issue's targets, each met or not. */
  targets: Array<{ target: string; measured: string; met: boolean }>;
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const us = (value: number | null) => (value === null ? '—' : Math.round(value).toLocaleString('en-US'));

export function machine(): ReadsSummary['machine'] {
  const list = cpus();
  return { cpus: list.length, cpuModel: list[0]?.model ?? 'unknown', loadavg1AtStart: loadavg()[0] ?? 0 };
}

/**
 * The issue's targets against the reads under `clients` concurrent clients
 * (the lookups' one-client figures are given beside, as what a lookup costs
 * when it does not queue behind others).
 */
export function judgeTargets(summary: Pick<ReadsSummary, 'reads' | 'registration'>): ReadsSummary['targets'] {
  const targets: ReadsSummary['targets'] = [];
  const loaded = summary.reads.filter((read) => !read.name.endsWith('(1 client)'));
  const worst = (pick: (name: string) => boolean, reads = loaded) => reads.filter((read) => pick(read.name)).reduce<LoadResult | undefined>((max, read) => (max === undefined || read.p99Ms > max.p99Ms ? read : max), undefined);
  const alone = (read: LoadResult | undefined) => {
    const single = read === undefined ? undefined : summary.reads.find((other) => other.name === `${read.name} (1 client)`);
    return single === undefined ? '' : `; one client: p99 ${ms(single.p99Ms)} ms`;
  };
  const firstPages = worst((name) => /^(devices|notifications): /.test(name) && !name.includes('random page') && !name.includes('by token'));
  if (firstPages !== undefined) targets.push({ target: 'a first page of 20 devices or notifications (with counts), any project: p99 ≤ 50 ms under 8 clients', measured: `${ms(firstPages.p99Ms)} ms (${firstPages.name})`, met: firstPages.p99Ms <= 50 });
  const anyPage = worst((name) => /^(devices|notifications): .*random page/.test(name));
  if (anyPage !== undefined) targets.push({ target: 'a random page (any offset) of 20 devices or notifications: p99 ≤ 50 ms under 8 clients', measured: `${ms(anyPage.p99Ms)} ms (${anyPage.name})`, met: anyPage.p99Ms <= 50 });
  const byId = worst((name) => name.startsWith('device by id') || name.startsWith('notification by id'));
  if (byId !== undefined) targets.push({ target: 'a by-id lookup: p99 ≤ 5 ms (under 8 clients)', measured: `${ms(byId.p99Ms)} ms (${byId.name})${alone(byId)}`, met: byId.p99Ms <= 5 });
  const one = worst((name) => name.startsWith('devices: one-device'));
  if (one !== undefined) targets.push({ target: 'a project with one device lists in ≤ 5 ms (p99, under 8 clients)', measured: `${ms(one.p99Ms)} ms${alone(one)}`, met: one.p99Ms <= 5 });
  if (summary.registration !== undefined) {
    targets.push({ target: 'anonymous registrations ≥ 1,000/s (64 in flight)', measured: `${Math.round(summary.registration.perSecond)}/s with ${summary.registration.storedBefore.toLocaleString('en-US')} stored`, met: summary.registration.perSecond >= 1_000 });
  }
  return targets;
}

export function formatReads(summary: ReadsSummary): string {
  const lines = [
    `Read benchmark: ${summary.devices.toLocaleString('en-US')} devices, ${summary.notifications.toLocaleString('en-US')} notifications, ${summary.projects} projects (${summary.infra}); ${summary.clients} clients per endpoint`,
    `machine: ${summary.machine.cpus} × ${summary.machine.cpuModel}; load average ${summary.machine.loadavg1AtStart.toFixed(2)} at start, ${summary.machine.loadavg1AtEnd?.toFixed(2) ?? '—'} at end`,
  ];
  if (summary.seeding !== undefined) lines.push(`seeding through Kafka: ${summary.seeding.events.toLocaleString('en-US')} events published in ${summary.seeding.publishS.toFixed(1)} s, projected ${summary.seeding.projectedS.toFixed(1)} s later (${Math.round(summary.seeding.perSecond).toLocaleString('en-US')} events/s end to end)`);
  const registration = summary.registration;
  if (registration !== undefined) {
    lines.push(
      `registration through the API (anonymous POST /api/v1/devices, ${registration.inFlight} in flight, ${registration.storedBefore.toLocaleString('en-US')} devices stored): ${Math.round(registration.perSecond).toLocaleString('en-US')}/s, p50 ${ms(registration.p50Ms)} ms, p99 ${ms(registration.p99Ms)} ms, store ${us(registration.storeCpuUs)} µs and API ${us(registration.apiCpuUs)} µs of CPU each, ${registration.errors} errors${registration.firstError === undefined ? '' : ` (first: ${registration.firstError})`}`,
    );
  }
  if (summary.countsMatch !== undefined) lines.push(`listed totals equal what was seeded: ${summary.countsMatch ? 'yes' : `NO: ${(summary.countProblems ?? []).join('; ')}`}`);
  lines.push('', '| endpoint | p50 ms | p99 ms | max ms | req/s | store CPU µs/req | API CPU µs/req | others µs/req | errors |', '|---|---|---|---|---|---|---|---|---|');
  for (const read of summary.reads) {
    lines.push(`| ${read.name} | ${ms(read.p50Ms)} | ${ms(read.p99Ms)} | ${ms(read.maxMs)} | ${Math.round(read.perSecond)} | ${us(read.storeCpuUs)} | ${us(read.apiCpuUs)} | ${us(read.otherCpuUs)} | ${read.errors}${read.firstError === undefined ? '' : ` (${read.firstError})`} |`);
  }
  lines.push('', 'Targets:');
  for (const target of summary.targets) lines.push(`  ${target.met ? 'met   ' : 'MISSED'} ${target.target}: ${target.measured}`);
  if (summary.error !== undefined) lines.push('', `${summary.status.toUpperCase()}: ${summary.error}`);
  return lines.join('\n');
}
