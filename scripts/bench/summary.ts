import type { FaultPlan } from './args.ts';
import { cpuPerPushByProvider, withDeliveryFolded, type SenderRole } from './delivery-roles.ts';

/** The process groups a run accounts CPU and memory to; instances of one group (and a store's process tree) are summed. */
export const PROCESS_GROUPS = ['api', 'projector', 'delivery', 'kafka', 'store', 'fakes', 'bench'] as const;
export type ProcessGroup = (typeof PROCESS_GROUPS)[number];

/** Pushes per delivery batch: the most one batch in flight can re-send after a kill. */
export const BATCH_SIZE = 500;

/** What `--json` prints as the last line of stdout. Times in ms, rates per second; null when not reached/measured. */
export interface BenchSummary {
  status: string;
  passed: boolean;
  failures: string[];
  devices: number;
  delivery_instances: number;
  projector_instances: number;
  latency_ms: number;
  /** herald.device-events partitions (one audience index and one fan-out task chain each). */
  partitions: number;
  notifications_per_s: number | null;
  ceiling_per_s: number | null;
  /** Which client measured the ceiling: h2load, or the Node client when h2load could not be had; null when not measured. */
  ceiling_client: 'h2load' | 'node' | null;
  fraction_of_ceiling: number | null;
  /** First registration publish → every partition's audience index applied the device-events ends (delivery /metrics, 250 ms polls). */
  index_build_ms: number | null;
  /** Peak resident size of the index's file mappings, summed over delivery instances (/proc/<pid>/smaps). */
  index_rss_mb: number | null;
  /** `--restart-delivery`: the new processes' start → every delivery group joined and every partition's index at the device-events ends (from its checkpoint). */
  restart_ready_ms?: number | null;
  first_delivery_ms: number | null;
  delivered_distinct: number;
  duplicates: number;
  /** 500 × batches in flight on killed instances; 0 when none was killed. */
  duplicate_bound: number;
  dead_letters: number | null;
  counts_match_ledger: boolean | null;
  counts: Record<string, number> | null;
  ledger_counts: Record<string, number> | null;
  /** Summed over a group's processes (several delivery instances, a store's process tree). */
  peak_rss_mb: Record<ProcessGroup, number | null>;
  /** The group's largest single process (its own VmHWM): what each instance needs; equals peak_rss_mb for a group of one. */
  peak_process_rss_mb: Record<ProcessGroup, number | null>;
  cpu_us_per_push: Record<ProcessGroup, number | null>;
  /** `--split-delivery-roles`: each provider's sender process CPU over the pushes sent to that provider (ledger), for every provider with pushes. */
  cpu_us_per_push_by_provider?: Partial<Record<SenderRole, number | null>>;
  /** `--split-delivery-roles`: the fan-out process's CPU over all pushes. */
  fanout_cpu_us_per_push?: number | null;
  /** `--split-delivery-roles`: the pushes each provider was sent, the denominators above. */
  pushes_by_provider?: Partial<Record<SenderRole, number>>;
  small_send_latency_ms?: number | null;
  /** `--transactional-during`: the 10-device send's latency to its last device (the largest of its sends). */
  transactional_max_latency_ms?: number | null;
  /** `--kill-broker-at`: the node id of the broker killed, and ms from the kill until every partition of the delivery and device-event topics it led had a live leader again (sends to them acknowledged again). */
  broker_killed?: number | null;
  leader_failover_ms?: number | null;
  faults: FaultPlan;
  /** What was injected, when (delivered %), and with what effect. */
  fault_log: string[];
}

export interface SummaryInput {
  status: string;
  devices: number;
  deliveryInstances: number;
  projectorInstances: number;
  latencyMs: number;
  partitions: number;
  ceilingClient?: 'h2load' | 'node';
  indexBuildS?: number;
  indexRssBytes?: number;
  /** Set by `--restart-delivery` (undefined: not asked; null: asked, not reached). */
  restartReadyS?: number | null;
  /** Seconds from the POST to the N-th distinct delivery. */
  lastDeliveryS?: number;
  firstDeliveryS?: number;
  ceilingRate?: number;
  distinct: number;
  duplicates: number;
  batchesInFlightOnKilled: number;
  deadLetters: number | null;
  counts: Record<string, number> | null;
  ledgerCounts: Record<string, number> | null;
  countsMatch: boolean | null;
  /** By group name: the PROCESS_GROUPS, and with split delivery roles a `delivery-<role>` group each (folded into `delivery`). */
  peakRssBytes: Readonly<Record<string, number | null>>;
  processPeakRssBytes: Readonly<Record<string, number | null>>;
  /** CPU seconds per group while sending (first → last delivery). */
  sendingCpuS: Readonly<Record<string, number>>;
  /** `--split-delivery-roles`: pushes sent to each provider; adds the per-provider CPU figures. */
  providerPushes?: Partial<Record<SenderRole, number>>;
  smallSendLatencyMs?: number | null;
  transactionalDuring?: boolean;
  brokerKilled?: number | null;
  leaderFailoverMs?: number | null;
  faults: FaultPlan;
  faultLog: string[];
}

export function duplicateBound(batchesInFlightOnKilled: number): number {
  return BATCH_SIZE * Math.max(0, batchesInFlightOnKilled);
}

/** Why a run fails the judge (empty: it passes). Each line names the condition and the figures. */
export function verdict(input: Pick<SummaryInput, 'status' | 'devices' | 'distinct' | 'duplicates' | 'batchesInFlightOnKilled' | 'deadLetters' | 'countsMatch' | 'smallSendLatencyMs' | 'leaderFailoverMs' | 'faults'>): string[] {
  const failures: string[] = [];
  if (input.status !== 'ok') failures.push(`run status ${input.status}`);
  if (input.distinct < input.devices) failures.push(`delivered ${input.distinct} of ${input.devices} targeted devices`);
  const bound = duplicateBound(input.batchesInFlightOnKilled);
  if (input.duplicates > bound) failures.push(`duplicates ${input.duplicates} > bound ${bound} (${BATCH_SIZE} × ${input.batchesInFlightOnKilled} batches in flight on killed instances)`);
  if (input.deadLetters === null) failures.push('dead letters could not be counted');
  else if (input.deadLetters > 0) failures.push(`dead_letters ${input.deadLetters} (expected 0)`);
  if (input.countsMatch !== true) failures.push(input.countsMatch === null ? 'counts could not be compared with the ledger' : 'counts differ from the ledger');
  if (input.faults.smallSendAt !== undefined && (input.smallSendLatencyMs === undefined || input.smallSendLatencyMs === null)) failures.push('small send was not delivered to all 10 devices');
  if (input.faults.killBrokerAt !== undefined && (input.leaderFailoverMs === undefined || input.leaderFailoverMs === null)) failures.push('the killed broker\'s partitions got no new leader (or no broker was killed)');
  return failures;
}

const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
const megabytes = (bytes: number | null | undefined) => (bytes === undefined || bytes === null ? null : round(bytes / 1024 / 1024, 1));

export function buildSummary(input: SummaryInput): BenchSummary {
  const failures = verdict(input);
  const rate = input.lastDeliveryS === undefined || input.lastDeliveryS <= 0 ? null : input.devices / input.lastDeliveryS;
  const ceiling = input.ceilingRate === undefined || input.ceilingRate <= 0 ? null : input.ceilingRate;
  const byGroup = <T>(pick: (group: ProcessGroup) => T) => Object.fromEntries(PROCESS_GROUPS.map((group) => [group, pick(group)])) as Record<ProcessGroup, T>;
  // Split delivery roles: `delivery` is their sum (RSS: of each process's peak), its largest process the largest of them.
  const sum = (parts: number[]) => parts.reduce((total, part) => total + part, 0);
  const cpuS = withDeliveryFolded(input.sendingCpuS, sum);
  const peakRss = withDeliveryFolded(input.peakRssBytes, sum);
  const processPeakRss = withDeliveryFolded(input.processPeakRssBytes, (parts) => Math.max(...parts));
  const perProvider = input.providerPushes === undefined ? undefined : cpuPerPushByProvider(input.sendingCpuS, input.providerPushes);
  return {
    status: input.status,
    passed: failures.length === 0,
    failures,
    devices: input.devices,
    delivery_instances: input.deliveryInstances,
    projector_instances: input.projectorInstances,
    latency_ms: input.latencyMs,
    partitions: input.partitions,
    notifications_per_s: rate === null ? null : round(rate),
    ceiling_per_s: ceiling === null ? null : round(ceiling),
    ceiling_client: ceiling === null ? null : (input.ceilingClient ?? null),
    fraction_of_ceiling: rate === null || ceiling === null ? null : round(rate / ceiling, 3),
    index_build_ms: input.indexBuildS === undefined ? null : round(input.indexBuildS * 1000),
    index_rss_mb: input.indexRssBytes === undefined ? null : round(input.indexRssBytes / 1024 / 1024, 1),
    ...(input.restartReadyS === undefined ? {} : { restart_ready_ms: input.restartReadyS === null ? null : round(input.restartReadyS * 1000) }),
    first_delivery_ms: input.firstDeliveryS === undefined ? null : round(input.firstDeliveryS * 1000),
    delivered_distinct: input.distinct,
    duplicates: input.duplicates,
    duplicate_bound: duplicateBound(input.batchesInFlightOnKilled),
    dead_letters: input.deadLetters,
    counts_match_ledger: input.countsMatch,
    counts: input.counts,
    ledger_counts: input.ledgerCounts,
    peak_rss_mb: byGroup((group) => megabytes(peakRss[group])),
    peak_process_rss_mb: byGroup((group) => megabytes(processPeakRss[group])),
    cpu_us_per_push: byGroup((group) => {
      const seconds = cpuS[group];
      return seconds === undefined || seconds === null || input.distinct === 0 ? null : round((seconds * 1e6) / input.devices, 1);
    }),
    ...(perProvider === undefined || input.providerPushes === undefined
      ? {}
      : { cpu_us_per_push_by_provider: perProvider.byProvider, fanout_cpu_us_per_push: perProvider.fanout, pushes_by_provider: input.providerPushes }),
    ...(input.faults.smallSendAt === undefined ? {} : { small_send_latency_ms: input.smallSendLatencyMs === undefined || input.smallSendLatencyMs === null ? null : round(input.smallSendLatencyMs) }),
    ...(input.transactionalDuring === true ? { transactional_max_latency_ms: input.smallSendLatencyMs === undefined || input.smallSendLatencyMs === null ? null : round(input.smallSendLatencyMs) } : {}),
    ...(input.faults.killBrokerAt === undefined ? {} : { broker_killed: input.brokerKilled ?? null, leader_failover_ms: input.leaderFailoverMs === undefined || input.leaderFailoverMs === null ? null : round(input.leaderFailoverMs) }),
    faults: input.faults,
    fault_log: input.faultLog,
  };
}
