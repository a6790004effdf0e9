import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.ts';
import { countsMatchLedger } from './ledger.ts';
import { buildSummary, duplicateBound, verdict, type SummaryInput } from './summary.ts';

const clean: SummaryInput = {
  status: 'ok',
  devices: 1000,
  deliveryInstances: 1,
  projectorInstances: 1,
  latencyMs: 0,
  partitions: 6,
  ceilingClient: 'h2load',
  indexBuildS: 1.2345,
  indexRssBytes: 48 * 1024 * 1024,
  lastDeliveryS: 0.5,
  firstDeliveryS: 0.12,
  ceilingRate: 4000,
  distinct: 1000,
  duplicates: 0,
  batchesInFlightOnKilled: 0,
  deadLetters: 0,
  counts: { targeted: 1000, sent: 1000, delivered: 1000, failed: 0, invalid: 0, opened: 0 },
  ledgerCounts: { delivered: 1000 },
  countsMatch: true,
  peakRssBytes: { api: 100 * 1024 * 1024, delivery: 1500 * 1024 * 1024, store: null },
  processPeakRssBytes: { api: 100 * 1024 * 1024, delivery: 600 * 1024 * 1024, store: null },
  sendingCpuS: { delivery: 0.15, kafka: 0.05 },
  faults: {},
  faultLog: [],
};

describe('parseBenchArgs', () => {
  it('reads instances, faults and --json', () => {
    const args = parseBenchArgs(['--devices', '3_000', '--json', '--delivery-instances', '3', '--kill-delivery-at', '30', '--small-send-at', '50']);
    expect(args).toMatchObject({ devices: 3000, json: true, deliveryInstances: 3, projectorInstances: 1, faults: { killDeliveryAt: 30, smallSendAt: 50 } });
    expect(parseBenchArgs([]).faults).toEqual({});
  });

  it('reads a broker kill on a three-broker cluster, its restart and the transactional send it puts in the outage', () => {
    const args = parseBenchArgs(['--brokers', '3', '--kill-broker-at', '30', '--restart-broker-after', '15', '--transactional-during']);
    expect(args).toMatchObject({ brokers: 3, restartBrokerAfterS: 15, transactionalDuring: true, faults: { killBrokerAt: 30, smallSendAt: 30 } });
    expect(parseBenchArgs(['--brokers', '3', '--kill-broker-at', '40'])).toMatchObject({ restartBrokerAfterS: 20, transactionalDuring: false });
    expect(parseBenchArgs([])).toMatchObject({ brokers: 1 });
    expect(() => parseBenchArgs(['--kill-broker-at', '30'])).toThrow(/--kill-broker-at needs --brokers 3/);
    expect(() => parseBenchArgs(['--brokers', '3', '--restart-broker-after', '5'])).toThrow(/--restart-broker-after needs --kill-broker-at/);
    expect(() => parseBenchArgs(['--brokers', '0'])).toThrow(/--brokers/);
  });

  it('reads --split-delivery-roles, one instance per role only', () => {
    expect(parseBenchArgs([])).toMatchObject({ splitDeliveryRoles: false });
    expect(parseBenchArgs(['--split-delivery-roles', '--kill-delivery-at', '30'])).toMatchObject({ splitDeliveryRoles: true, deliveryInstances: 1 });
    expect(() => parseBenchArgs(['--split-delivery-roles', '--delivery-instances', '2'])).toThrow(/--split-delivery-roles runs one delivery process per role/);
    expect(() => parseBenchArgs(['--split-delivery-roles', '--add-delivery-at', '50'])).toThrow(/--split-delivery-roles/);
    expect(() => parseBenchArgs(['--split-delivery-roles', '--template', 'per-locale'])).toThrow(/--split-delivery-roles/);
  });

  it('refuses a fault point outside 0..100 and zero instances', () => {
    expect(() => parseBenchArgs(['--restart-store-at', '100'])).toThrow(/--restart-store-at: invalid value '100'/);
    expect(() => parseBenchArgs(['--add-delivery-at', '0'])).toThrow(/--add-delivery-at/);
    expect(() => parseBenchArgs(['--projector-instances', '0'])).toThrow(/--projector-instances/);
  });
});

describe('verdict', () => {
  it('passes a clean run', () => {
    expect(verdict(clean)).toEqual([]);
  });

  it('reports the killed broker, its failover and the transactional latency, and fails a kill whose partitions got no leader', () => {
    const killed = { ...clean, faults: { killBrokerAt: 30, smallSendAt: 30 }, transactionalDuring: true, smallSendLatencyMs: 812.4, brokerKilled: 2, leaderFailoverMs: 9431.6 };
    expect(buildSummary(killed)).toMatchObject({ passed: true, broker_killed: 2, leader_failover_ms: 9432, transactional_max_latency_ms: 812 });
    expect(verdict({ ...killed, leaderFailoverMs: null })).toEqual(["the killed broker's partitions got no new leader (or no broker was killed)"]);
    expect(buildSummary(clean)).not.toHaveProperty('broker_killed');
  });

  it('names every failed condition', () => {
    const failures = verdict({ ...clean, distinct: 990, duplicates: 501, batchesInFlightOnKilled: 1, deadLetters: 2, countsMatch: false, faults: { smallSendAt: 40 } });
    expect(failures).toEqual([
      'delivered 990 of 1000 targeted devices',
      'duplicates 501 > bound 500 (500 × 1 batches in flight on killed instances)',
      'dead_letters 2 (expected 0)',
      'counts differ from the ledger',
      'small send was not delivered to all 10 devices',
    ]);
    expect(verdict({ ...clean, deadLetters: null, countsMatch: null })).toEqual(['dead letters could not be counted', 'counts could not be compared with the ledger']);
  });

  it('allows no duplicate when no instance was killed', () => {
    expect(duplicateBound(0)).toBe(0);
    expect(verdict({ ...clean, duplicates: 1 })).toHaveLength(1);
    expect(duplicateBound(16)).toBe(8000);
  });
});

describe('buildSummary', () => {
  it('derives rates, fractions and per-push CPU by process group', () => {
    const summary = buildSummary({ ...clean, faults: { smallSendAt: 50 }, smallSendLatencyMs: 420 });
    expect(summary).toMatchObject({
      passed: true,
      notifications_per_s: 2000,
      ceiling_per_s: 4000,
      ceiling_client: 'h2load',
      fraction_of_ceiling: 0.5,
      partitions: 6,
      index_build_ms: 1235,
      index_rss_mb: 48,
      first_delivery_ms: 120,
      delivered_distinct: 1000,
      duplicates: 0,
      dead_letters: 0,
      counts_match_ledger: true,
      small_send_latency_ms: 420,
    });
    expect(summary.cpu_us_per_push).toMatchObject({ delivery: 150, kafka: 50, api: null });
    expect(summary.peak_rss_mb).toMatchObject({ api: 100, delivery: 1500, store: null, bench: null });
    expect(summary.peak_process_rss_mb).toMatchObject({ api: 100, delivery: 600, store: null, bench: null });
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });

  it('with split delivery roles: delivery sums the role processes, CPU per push by provider and of the fan-out', () => {
    const MB = 1024 * 1024;
    const summary = buildSummary({
      ...clean,
      sendingCpuS: { 'delivery-fanout': 0.05, 'delivery-apns': 0.04, 'delivery-fcm': 0.06, 'delivery-webpush': 0, 'delivery-hms': 0.001, kafka: 0.05 },
      peakRssBytes: { 'delivery-fanout': 200 * MB, 'delivery-apns': 150 * MB, 'delivery-fcm': 160 * MB, 'delivery-webpush': 100 * MB, 'delivery-hms': 100 * MB },
      processPeakRssBytes: { 'delivery-fanout': 200 * MB, 'delivery-apns': 150 * MB, 'delivery-fcm': 160 * MB, 'delivery-webpush': 100 * MB, 'delivery-hms': 100 * MB },
      providerPushes: { apns: 400, fcm: 600, webpush: 0, hms: 0 },
    });
    expect(summary.cpu_us_per_push).toMatchObject({ delivery: 151, kafka: 50 });
    expect(summary.peak_rss_mb.delivery).toBe(710);
    expect(summary.peak_process_rss_mb.delivery).toBe(200);
    expect(summary).toMatchObject({ cpu_us_per_push_by_provider: { apns: 100, fcm: 100 }, fanout_cpu_us_per_push: 50, pushes_by_provider: { apns: 400, fcm: 600, webpush: 0, hms: 0 } });
    expect(buildSummary(clean)).not.toHaveProperty('cpu_us_per_push_by_provider');
    expect(buildSummary(clean)).not.toHaveProperty('fanout_cpu_us_per_push');
  });

  it('leaves rates null when the run did not finish, and omits small_send_latency_ms unless asked', () => {
    const summary = buildSummary({ ...clean, status: 'timeout', lastDeliveryS: undefined, distinct: 10 });
    expect(summary).toMatchObject({ passed: false, notifications_per_s: null, fraction_of_ceiling: null });
    expect('small_send_latency_ms' in summary).toBe(false);
    expect(buildSummary({ ...clean, ceilingRate: undefined, indexBuildS: undefined, indexRssBytes: undefined })).toMatchObject({ ceiling_client: null, fraction_of_ceiling: null, index_build_ms: null, index_rss_mb: null });
  });
});

describe('countsMatchLedger', () => {
  it('compares every outcome and sent as their sum', () => {
    expect(countsMatchLedger({ sent: 10, delivered: 8, failed: 1, invalid: 1 }, { delivered: 8, failed: 1, invalid: 1 })).toBe(true);
    expect(countsMatchLedger({ sent: 12, delivered: 10, failed: 1, invalid: 1 }, { delivered: 8, failed: 1, invalid: 1 })).toBe(false);
    expect(countsMatchLedger({ sent: 10, delivered: 10 }, { delivered: 9, failed: 1 })).toBe(false);
  });
});

describe('dueFaults', () => {
  it('fires each reached point once, lowest first', async () => {
    const { dueFaults } = await import('./faults.ts');
    const plan = { killDeliveryAt: 30, restartBrokerAt: 60, addDeliveryAt: 45 };
    expect(dueFaults(plan, 29.9, new Set())).toEqual([]);
    expect(dueFaults(plan, 50, new Set())).toEqual(['killDeliveryAt', 'addDeliveryAt']);
    expect(dueFaults(plan, 100, new Set(['killDeliveryAt']))).toEqual(['addDeliveryAt', 'restartBrokerAt']);
  });

  it('bounds the batches in flight on a killed instance by its senders’ concurrency', async () => {
    const { batchesInFlightBound } = await import('./faults.ts');
    expect(batchesInFlightBound(3)).toBe(3);
    expect(batchesInFlightBound(400)).toBe(16);
  });
});
