import { describe, expect, it } from 'vitest';
import { parseTransactionalArgs } from './transactional-args.ts';
import { buildTransactionalSummary, formatStageTimeline, type TransactionalInput } from './transactional-report.ts';
import { cpuPerNotification, deviceOfSend, percentile, sendFigures, sendOfDevice, transactionalVerdict, WARM_UP_MS } from './transactional-stats.ts';
import { emptyLoadFigures } from './transactional-load.ts';

describe('parseTransactionalArgs', () => {
  it('reads a closed loop by default and an open loop with --rate', () => {
    expect(parseTransactionalArgs(['--sends', '10_000', '--concurrency', '32', '--json'])).toMatchObject({ sends: 10_000, concurrency: 32, rate: undefined, stored: 0, json: true, timeoutS: 740 });
    expect(parseTransactionalArgs(['--sends', '3000', '--rate', '300', '--stored', '100000'])).toMatchObject({ sends: 3000, rate: 300, stored: 100_000, timeoutS: 890 });
  });

  it('refuses bad values, and a rate with a concurrency', () => {
    expect(() => parseTransactionalArgs(['--sends', '0'])).toThrow(/--sends: invalid value '0'/);
    expect(() => parseTransactionalArgs(['--rate', '-1'])).toThrow(/--rate/);
    expect(() => parseTransactionalArgs(['--rate', '10', '--concurrency', '4'])).toThrow(/choose one/);
    expect(() => parseTransactionalArgs(['--devices', '4'])).toThrow();
  });
});

describe('sends and devices', () => {
  it('alternates iOS and Android devices and maps back', () => {
    expect(Array.from({ length: 5 }, (_, send) => deviceOfSend(send, 5))).toEqual([0, 3, 1, 4, 2]);
    for (const sends of [1, 2, 7, 10]) {
      const devices = Array.from({ length: sends }, (_, send) => deviceOfSend(send, sends));
      expect(new Set(devices).size).toBe(sends);
      expect(devices.map((device) => sendOfDevice(device, sends))).toEqual(Array.from({ length: sends }, (_, send) => send));
    }
  });
});

describe('figures', () => {
  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 50)).toBeNull();
  });

  it('derives POST rate, end-to-end rate and request → delivered from one clock', () => {
    const times = { start: Float64Array.from([0, 10, 20, 30]), answered: Float64Array.from([5, 15, 25, 1000]), delivered: Float64Array.from([50, 60, 2000, 80]) };
    expect(sendFigures(times)).toMatchObject({ postPerS: 4, notificationsPerS: 2, sendingS: 2, deliveredMaxMs: 1980, postP50Ms: 5, postP99Ms: 970 });
    times.delivered[2] = NaN;
    expect(sendFigures(times)).toMatchObject({ notificationsPerS: null, sendingS: null, deliveredP50Ms: 50 });
  });

  it('takes the warm latencies over the sends started WARM_UP_MS or more after the first', () => {
    const times = { start: Float64Array.from([0, 1_000, WARM_UP_MS, WARM_UP_MS + 10]), answered: Float64Array.from([1, 1_001, WARM_UP_MS + 1, WARM_UP_MS + 11]), delivered: Float64Array.from([3_000, 2_500, WARM_UP_MS + 100, WARM_UP_MS + 310]) };
    expect(sendFigures(times)).toMatchObject({ deliveredP99Ms: 3_000, warmDeliveredP50Ms: 100, warmDeliveredP99Ms: 300 });
  });

  it("sums Herald's own CPU per notification (not the fakes' or the bench's)", () => {
    const cpu = cpuPerNotification({ api: 1, projector: 0.5, delivery: 2, kafka: 0.5, store: 1, fakes: 3, bench: 4 }, 1000);
    expect(cpu.herald).toBe(5);
    expect(cpu.byGroup).toMatchObject({ api: 1, fakes: 3, bench: 4 });
    expect(cpuPerNotification({}, 10)).toMatchObject({ herald: null, byGroup: { api: null } });
  });
});

describe('transactionalVerdict', () => {
  const clean = { status: 'ok', sends: 10, postErrors: 0, distinct: 10, duplicates: 0, rejected: 0, deadLetters: 0, countsChecked: 10, countsMismatched: 0, ledgerDelivered: 10 };
  it('passes a clean run and names every failed condition', () => {
    expect(transactionalVerdict(clean)).toEqual([]);
    expect(transactionalVerdict({ ...clean, status: 'timeout', postErrors: 1, distinct: 9, duplicates: 1, rejected: 2, deadLetters: 3, countsMismatched: 4, ledgerDelivered: 9 })).toEqual([
      'run status timeout',
      '1 POSTs not answered 201',
      'delivered 9 of 10 sends',
      'duplicates 1 (expected 0: nothing was faulted)',
      '2 pushes rejected by the fakes',
      'dead_letters 3 (expected 0)',
      "4 of 10 notifications' counts differ from the ledger",
      'the ledger has 9 delivered devices for 10 sends',
    ]);
    expect(transactionalVerdict({ ...clean, countsChecked: 9 })).toEqual(['counts compared for 9 of 10 notifications']);
    expect(transactionalVerdict({ ...clean, deadLetters: null, countsMismatched: null, ledgerDelivered: null })).toEqual(['dead letters could not be counted', 'counts could not be compared with the ledger']);
  });
});

describe('buildTransactionalSummary', () => {
  it('reports the send phase and the phase until projected, per notification', () => {
    const load = emptyLoadFigures(2);
    load.start.set([0, 0]);
    load.answered.set([4, 6]);
    load.delivered.set([100, 500]);
    load.distinct = 2;
    const input: TransactionalInput = {
      status: 'ok',
      sends: 2,
      concurrency: 32,
      rate: undefined,
      stored: 0,
      partitions: 6,
      load,
      rejected: 0,
      judge: { deadLetters: 0, countsChecked: 2, countsMismatched: 0, ledgerDelivered: 2 },
      phases: [
        { phase: 'sending', wallS: 0.5, cpuS: { api: 0.002, delivery: 0.004, bench: 0.01 }, otherCpuS: 0.1, machineBusyPct: 50 },
        { phase: 'completing', wallS: 1, cpuS: { projector: 0.002 }, otherCpuS: 0, machineBusyPct: 10 },
      ],
      peakRssBytes: { api: 100 * 1024 * 1024 },
      indexBuildS: 0.75,
    };
    const summary = buildTransactionalSummary(input);
    expect(summary).toMatchObject({
      passed: true,
      concurrency: 32,
      rate_offered: null,
      notifications_per_s: 4,
      delivered_p50_ms: 100,
      delivered_p99_ms: 500,
      herald_cpu_ms_per_notification: 3,
      herald_cpu_ms_per_notification_to_projected: 4,
      others_cpu_s_sending: 0.1,
      peak_rss_mb: { api: 100 },
      index_build_ms: 750,
      index_rss_mb: null,
      open_loop_max_start_lag_ms: null,
    });
    expect(summary.cpu_ms_per_notification).toMatchObject({ bench: 5, projector: null });
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });
});

describe('formatStageTimeline', () => {
  it('prints each stage’s backlog, at most 30 lines', () => {
    const lags = { coordinator: 5, tasks: 4, apns: 0, fcm: 0, apnsExpress: 3, fcmExpress: 2, notifications: 10, ledger: 9 };
    const text = formatStageTimeline(Array.from({ length: 90 }, (_, i) => ({ t: 2 * i, answered: i, delivered: i, lags })));
    expect(text.trim().split('\n')).toHaveLength(31);
    expect(text).toContain('5, 4, 3/2, 0/0, 10/9');
    expect(formatStageTimeline([])).toBe('');
  });
});
