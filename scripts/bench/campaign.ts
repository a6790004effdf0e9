// `npm run bench:campaign -- --devices 100000`: registers N devices through
// Kafka, sends one notification to a topic holding all of them through the
// HTTP API, and prints notifications/s end to end against zero-latency fake
// APNs/FCM, next to the raw HTTP/2 rate this machine reaches against the same
// fake. Figures only: nothing here asserts on time. See README.md beside it.
import { parseBenchArgs } from './args.ts';
import { measureCeiling, startBareH2 } from './ceiling.ts';
import { Deadline, DeadlineExceeded, endRunOnTimeoutOrSignal } from './deadline.ts';
import { ensureH2load } from './h2load.ts';
import { watchIndexMemory, waitForIndex } from './index-watch.ts';
import { setUpInfra, type BenchInfra } from './infra.ts';
import { PositionReader } from './offsets.ts';
import { ProcessWatch } from './proc.ts';
import { publishDevices, waitForProjection } from './register.ts';
import { formatTable, formatTimeline, machineInfo, parseDeliveryMetrics, type BenchResult } from './report.ts';
import { runCampaign } from './send.ts';
import { faultActions } from './fault-actions.ts';
import { createFaultRunner } from './faults.ts';
import { judgeRun, type JudgeFigures } from './judge.ts';
import { createSmallSend, registerSmallTopic, SMALL_DEVICES } from './small-send.ts';
import { TOPICS } from '@herald/events';
import { buildSummary, type BenchSummary } from './summary.ts';
import { judgePace, type PaceJudgement } from './pace-judge.ts';
import { steerWhenReached, type SteerFigures } from './steer.ts';
import { BUNDLE_ID, startSystem, type BenchSystem } from './system.ts';
import { restartFromCheckpoint } from './restart.ts';
import { emitJson } from './runs.ts';
import { comparisonLines, emptyFigures, literalSummary, runLiteralCampaign, saveTemplates, withLiteral, type LiteralRun } from './content-campaign.ts';
import { profileFor, templateNotification } from './content-plan.ts';
import { splitDevices } from './shares.ts';
import { DELIVERY_ROLES, pushesByProvider, roleGroup } from './delivery-roles.ts';
import { readLedgerSentByProvider } from './ledger.ts';

const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const BATCH = 500;

const args = (() => {
  try {
    return parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
})();
const deadline = new Deadline(args.timeoutS);
// Device indexes: iOS first, then Android, then web, then huawei (register.ts, shares.ts).
const { ios: iosCount, android: androidCount, web: webCount, huawei: huaweiCount } = splitDevices(args.devices, args);
const watch = new ProcessWatch();
watch.add('bench', process.pid);
watch.start();

const result: BenchResult = {
  status: 'ok',
  devices: args.devices,
  ios: iosCount,
  android: androidCount,
  ...(webCount === 0 ? {} : { web: webCount }),
  ...(huaweiCount === 0 ? {} : { huawei: huaweiCount }),
  latencyMs: args.latencyMs,
  partitions: args.partitions,
  infra: 'none',
  machine: machineInfo(),
  campaign: {
    distinct: 0,
    duplicates: 0,
    rejected: 0,
    maxInFlight: { apns: 0, fcm: 0 },
    expectedBatches: Math.ceil(iosCount / BATCH) + Math.ceil(androidCount / BATCH) + Math.ceil(webCount / BATCH) + Math.ceil(huaweiCount / BATCH),
    timeline: [],
  },
  peakRssMB: {},
  phases: [],
};

let infra: BenchInfra | undefined;
let system: BenchSystem | undefined;
let positions: PositionReader | undefined;
let finishing: Promise<void> | undefined;
let judged: JudgeFigures | undefined;
let indexMemory: ReturnType<typeof watchIndexMemory> | undefined;
/** Batches in flight on killed delivery instances (the duplicate bound), the small send's latency, what each fault did. */
const faultFigures = {
  batchesInFlightOnKilled: 0,
  smallSendLatencyMs: undefined as number | null | undefined,
  log: [] as string[],
  brokerKilled: undefined as number | undefined,
  leaderFailoverMs: undefined as number | null | undefined,
  /** Work faults left running (a killed broker's restart), awaited before judging. */
  later: [] as Array<Promise<unknown>>,
};
let summary: BenchSummary | undefined;
/** `--split-delivery-roles`: pushes sent per provider (the ledger's; undefined until read). */
let ledgerPushes: Record<string, number> | undefined;
let pace: PaceJudgement | undefined;
const steered: SteerFigures = {};
/** `--template`: the literal campaign sent first to the same devices (content-campaign.ts). */
const literal: LiteralRun | undefined = args.content === undefined ? undefined : { figures: emptyFigures(result.campaign.expectedBatches) };

/** Delivery metrics of every instance, summed by provider (a killed one no longer answers). */
async function deliveryMetrics(urls: readonly string[]): Promise<NonNullable<BenchResult['deliveryMetrics']>> {
  const out: NonNullable<BenchResult['deliveryMetrics']> = {};
  for (const url of urls) {
    const text = await fetch(url, { signal: AbortSignal.timeout(5000) }).then((response) => response.text(), () => '');
    for (const [provider, item] of Object.entries(parseDeliveryMetrics(text))) {
      const sum = (out[provider] ??= { sendCalls: 0, avgSendS: 0, outcomes: {} });
      sum.avgSendS = (sum.avgSendS * sum.sendCalls + item.avgSendS * item.sendCalls) / Math.max(1, sum.sendCalls + item.sendCalls);
      sum.sendCalls += item.sendCalls;
      for (const [outcome, n] of Object.entries(item.outcomes)) sum.outcomes[outcome] = (sum.outcomes[outcome] ?? 0) + n;
    }
  }
  return out;
}

function printSummary(c: BenchResult['campaign']): void {
  const sending = result.phases.find((item) => item.phase === 'sending');
  summary = buildSummary({
    status: result.status,
    devices: args.devices,
    deliveryInstances: args.deliveryInstances,
    projectorInstances: args.projectorInstances,
    latencyMs: args.latencyMs,
    partitions: args.partitions,
    ...(result.ceiling === undefined ? {} : { ceilingClient: result.ceiling.client }),
    ...(result.index?.buildS === undefined ? {} : { indexBuildS: result.index.buildS }),
    ...(result.index?.rssBytes === undefined ? {} : { indexRssBytes: result.index.rssBytes }),
    ...(args.restartDelivery ? { restartReadyS: result.index?.restartS ?? null } : {}),
    ...(c.lastDeliveryS === undefined ? {} : { lastDeliveryS: c.lastDeliveryS }),
    ...(c.firstDeliveryS === undefined ? {} : { firstDeliveryS: c.firstDeliveryS }),
    ...(result.ceiling === undefined ? {} : { ceilingRate: result.ceiling.rate }),
    distinct: c.distinct,
    duplicates: c.duplicates,
    batchesInFlightOnKilled: faultFigures.batchesInFlightOnKilled,
    deadLetters: judged?.deadLetters ?? null,
    counts: judged?.counts ?? c.counts ?? null,
    ledgerCounts: judged?.ledgerCounts ?? null,
    countsMatch: judged?.countsMatch ?? null,
    peakRssBytes: watch.peaks(),
    processPeakRssBytes: watch.processPeaks(),
    sendingCpuS: sending?.cpuS ?? {},
    ...(faultFigures.smallSendLatencyMs === undefined ? {} : { smallSendLatencyMs: faultFigures.smallSendLatencyMs }),
    transactionalDuring: args.transactionalDuring,
    ...(faultFigures.brokerKilled === undefined ? {} : { brokerKilled: faultFigures.brokerKilled }),
    ...(faultFigures.leaderFailoverMs === undefined ? {} : { leaderFailoverMs: faultFigures.leaderFailoverMs }),
    faults: args.faults,
    faultLog: faultFigures.log,
    ...(args.splitDeliveryRoles ? { providerPushes: pushesByProvider({ apns: iosCount, fcm: androidCount, webpush: webCount, hms: huaweiCount }, ledgerPushes) } : {}),
  });
  if (args.ratePerMinute !== undefined || args.pauseAt !== undefined) {
    const pause = steered.pausedS === undefined || steered.resumedS === undefined ? undefined : { atS: steered.pausedS, resumedS: steered.resumedS };
    pace = judgePace({ perSecond: c.perSecond ?? [], ratePerMinute: args.ratePerMinute ?? 0, pause });
    // Unpaced with a pause: only the pause is judged.
    if (args.ratePerMinute === undefined) pace = { ...pace, failures: pace.failures.filter((line) => line.includes('paused')) };
    if (args.pauseAt !== undefined && pause === undefined) pace.failures.push('the pause or the resume was not applied (see the log)');
    pace = { ...pace, passed: pace.failures.length === 0 };
    summary = { ...summary, passed: summary.passed && pace.passed, failures: [...summary.failures, ...pace.failures] };
  }
  const out = [`\nJudge: ${summary.passed ? 'PASSED' : `FAILED: ${summary.failures.join('; ')}`}`];
  if (pace !== undefined) {
    out.push(`  pace: asked ${args.ratePerMinute ?? 'unpaced'}/min; ${pace.windows} windows of ${pace.windowS} s, ${Math.round(pace.minPerMinute ?? 0)}–${Math.round(pace.maxPerMinute ?? 0)}/min`);
    if (args.pauseAt !== undefined) out.push(`  pause: asked at ${steered.pausedS?.toFixed(2)} s, resumed at ${steered.resumedS?.toFixed(2)} s, ${pace.sentWhilePaused} pushes from 1 s after the pause to the resume; last push ${steered.lastBeforePauseMs ?? '?'} ms after the pause`);
  }
  out.push(`  duplicates ${summary.duplicates} (bound ${summary.duplicate_bound} = 500 × ${faultFigures.batchesInFlightOnKilled} batches in flight on killed instances)`);
  out.push(`  dead letters ${String(summary.dead_letters)} ${JSON.stringify(judged?.deadLetterTopics ?? {})}`);
  out.push(`  counts ${JSON.stringify(summary.counts)} vs ledger ${JSON.stringify(summary.ledger_counts)}: ${String(summary.counts_match_ledger)}`);
  if (summary.cpu_us_per_push_by_provider !== undefined) {
    out.push(`  CPU µs per push by provider (its sender process over its pushes ${JSON.stringify(summary.pushes_by_provider)}): ${JSON.stringify(summary.cpu_us_per_push_by_provider)}; fan-out ${String(summary.fanout_cpu_us_per_push)} over all pushes`);
  }
  const compared = literal === undefined || args.content === undefined ? undefined : withLiteral(summary, literalSummary(args, result.status, literal, result.phases), args.content, result.phases);
  if (compared !== undefined) {
    out[0] = `\nJudge: ${compared.passed ? 'PASSED' : `FAILED: ${compared.failures.join('; ')}`}`;
    out.push(...comparisonLines(compared));
    summary = compared;
  }
  for (const line of faultFigures.log) out.push(`  fault: ${line}`);
  process.stdout.write(`${out.join('\n')}\n`);
  // Last line of stdout, for scripts.
  if (args.json) emitJson('campaign', pace === undefined ? summary : { ...summary, rate_per_minute: args.ratePerMinute ?? null, pace, steer: steered });
}

/** Figures first (peak RSS and metrics while the processes still live), then a clean shutdown. */
function finish(): Promise<void> {
  finishing ??= (async () => {
    watch.mark('end');
    watch.stop();
    result.phases = watch.phases();
    const inMegabytes = (peaks: Record<string, number | null>) => Object.fromEntries(Object.entries(peaks).map(([name, bytes]) => [name, bytes === null ? null : bytes / 1024 / 1024]));
    result.peakRssMB = inMegabytes(watch.peaks());
    result.processPeakRssMB = inMegabytes(watch.processPeaks());
    if (indexMemory !== undefined) {
      result.index = { ...result.index, rssBytes: indexMemory.peakBytes() };
      indexMemory.stop();
    }
    const c = result.campaign;
    if (system !== undefined && c.notificationId !== undefined) {
      // Read here too: a run stopped mid-campaign prints before the campaign's own finally runs.
      c.rejected = system.apns.stats.rejected + system.fcm.stats.rejected + (webCount === 0 ? 0 : system.webpush.stats.rejected) + (huaweiCount === 0 ? 0 : system.hms.stats.rejected);
      c.maxInFlight = {
        apns: system.apns.stats.maxInFlight,
        fcm: system.fcm.stats.maxInFlight,
        ...(webCount === 0 ? {} : { webpush: system.webpush.stats.maxInFlight }),
        ...(huaweiCount === 0 ? {} : { hms: system.hms.stats.maxInFlight }),
      };
    }
    if (c.lastDeliveryS !== undefined) result.notificationsPerSecond = args.devices / c.lastDeliveryS;
    if (result.notificationsPerSecond !== undefined && result.ceiling !== undefined && result.ceiling.rate > 0) {
      result.fractionOfCeiling = result.notificationsPerSecond / result.ceiling.rate;
    }
    if (system !== undefined) result.deliveryMetrics = await deliveryMetrics(system.deliveryMetricsUrls());
    process.stdout.write(`\nHerald campaign benchmark\n${formatTable(result)}\n${formatTimeline(result)}\nBENCH_JSON ${JSON.stringify(result)}\n`);
    printSummary(c);

    say('shutting down');
    await positions?.disconnect().catch(() => undefined);
    await system?.close().catch((error: unknown) => say(`stopping services: ${String(error)}`));
    await infra?.close(args.keep).catch((error: unknown) => say(`stopping infra: ${String(error)}`));
  })();
  return finishing;
}

/** What the phase under way has reached, for a run that ends early. */
const progress = (text: string) => {
  result.reached = `${phase}: ${text}`;
};

// A phase that hangs without reaching a deadline check (a stuck connection) still ends the run.
let phase = 'start-up';
endRunOnTimeoutOrSignal({ run: result, timeoutS: args.timeoutS, phase: () => phase, finished: () => finishing !== undefined, finish, say });

async function main(): Promise<void> {
  // Before anything is measured: an apt-get install must not land in a phase's CPU.
  const h2load = args.ceilingRequests > 0 ? await ensureH2load(say) : undefined;
  watch.mark('start-up');
  infra = await setUpInfra({ partitions: args.partitions, brokers: args.brokers, say });
  result.infra = `${infra.kind.kafka} + ${infra.kind.mongo}`;
  const control = infra.control;
  if (control !== undefined) {
    watch.add('kafka', { pids: () => control.kafkaPids() });
    // Every process of the store (FerretDB and any child of it) is summed.
    watch.add('store', { pids: () => control.storePids(), tree: true });
  }
  system = await startSystem(infra, {
    latencyMs: args.latencyMs,
    partitions: args.partitions,
    deliveryInstances: args.deliveryInstances,
    projectorInstances: args.projectorInstances,
    splitDeliveryRoles: args.splitDeliveryRoles,
  });
  const running = system;
  watch.add('fakes', system.fakesPid);
  for (const service of ['api', 'projector'] as const) watch.add(service, { pids: () => running.pidsOf(service) });
  // Split: each role's process a group of its own (a pid counts in one group); the summary sums them as `delivery`.
  if (args.splitDeliveryRoles) for (const role of DELIVERY_ROLES) watch.add(roleGroup(role), { pids: () => running.pidsOfDeliveryRole(role) });
  else watch.add('delivery', { pids: () => running.pidsOf('delivery') });
  positions = new PositionReader(infra.kafka);
  await positions.connect();
  indexMemory = watchIndexMemory(() => running.deliveryIndexDirs());
  say(`services up; project ${system.project.id}; prefix ${infra.prefix}`);

  if (args.ceilingRequests > 0) {
    watch.mark((phase = 'ceiling'));
    const seconds = Math.max(1, Math.min(args.ceilingSeconds, deadline.remainingMs() / 1000 - 5));
    say(`raw HTTP/2 ceiling (${h2load === undefined ? 'Node client: h2load unavailable' : 'h2load'}): up to ${args.ceilingRequests} requests or ${seconds} s, 4 sessions × 100 streams`);
    const ceiling = { ca: system.tls.ca, key: system.apnsKey, topic: BUNDLE_ID, projectId: system.project.id, count: args.ceilingRequests, seconds, h2load };
    result.ceiling = await measureCeiling({ ...ceiling, url: system.apns.url });
    say(`ceiling against the fake APNs (${result.ceiling.client} client): ${Math.round(result.ceiling.rate)} requests/s`);
    const bare = await startBareH2(system.tls);
    try {
      result.bareCeiling = await measureCeiling({ ...ceiling, url: bare.url, seconds: Math.min(seconds, 5) });
    } finally {
      await bare.close();
    }
    say(`ceiling against a bare HTTP/2 server (no checks): ${Math.round(result.bareCeiling.rate)} requests/s`);
  }

  watch.mark((phase = 'publish'));
  say(`registering ${args.devices} devices through Kafka (${iosCount} iOS, ${androidCount} Android, ${webCount} web, ${huaweiCount} huawei)`);
  // Browsers subscribe at the fake push service first (each gets its own key pair, as a browser would).
  const webFrom = iosCount + androidCount;
  const web = webCount === 0 ? undefined : { from: webFrom, subscriptions: await system.webpush.subscribe(webFrom, webCount), keyId: system.vapidKeyId };
  const publishStart = performance.now();
  const content = args.content;
  const profile = content === undefined ? undefined : (index: number) => profileFor(index, content.locales);
  const published = await publishDevices(infra.producer, {
    projectId: system.project.id,
    devices: args.devices,
    iosCount,
    web,
    huaweiFrom: huaweiCount === 0 ? undefined : webFrom + webCount,
    profile,
    deadline,
    progress,
  });
  result.publish = { seconds: published.seconds, rate: args.devices / published.seconds };

  const smallSendAt = args.faults.smallSendAt;
  if (smallSendAt !== undefined) await registerSmallTopic(infra.producer, system.project.id, args.devices);

  watch.mark((phase = 'projection'));
  // The delivery instances index the same records while the projector projects them: watched side by side.
  const indexed = waitForIndex({ metricsUrls: () => running.deliveryMetricsUrls(), ends: await positions.ends(TOPICS.deviceEvents), deadline, progress: () => undefined });
  indexed.catch(() => undefined);
  const registered = args.devices + (smallSendAt === undefined ? 0 : SMALL_DEVICES);
  const projected = await waitForProjection(infra.mongo.db, positions, { devices: registered, deadline, progress });
  // Projection runs while devices are published: its rate counts from the first publish to the last commit.
  const projectionSeconds = published.seconds + projected.caughtUpS;
  result.projection = { seconds: projectionSeconds, rate: args.devices / projectionSeconds, tailAfterPublishS: projected.caughtUpS, countS: projected.countS };
  watch.mark((phase = 'index'));
  result.index = { ...result.index, buildS: ((await indexed) - publishStart) / 1000 };
  say(`audience index built ${result.index.buildS?.toFixed(2)} s after the first publish`);
  if (args.restartDelivery) {
    watch.mark((phase = 'restart'));
    const restart = await restartFromCheckpoint(running, infra, positions, deadline);
    result.index = { ...result.index, restartS: restart.readyS, restartStopS: restart.stopS };
    say(`delivery restarted on its index checkpoint: ready to fan out ${restart.readyS.toFixed(2)} s after it started (the old instances drained in ${restart.stopS.toFixed(2)} s)`);
  }

  if (content !== undefined && literal !== undefined) {
    await saveTemplates(system.baseUrl, system.project.apiKey, content);
    say(`templates saved; a literal campaign first, to the same ${args.devices} devices`);
    await runLiteralCampaign({ system, infra, positions, devices: args.devices, web: webCount > 0, huawei: huaweiCount > 0, deadline, watch, run: literal, setPhase: (name) => (phase = name), progress });
    say(`then the ${content.template} template campaign (${content.locales} locales, ${content.variants} variant(s))`);
  }

  watch.mark((phase = 'to-first'));
  const small = createSmallSend({ baseUrl: system.baseUrl, apiKey: system.project.apiKey, from: args.devices, timeoutMs: 60_000 });
  let smallSend: Promise<void> | undefined;
  const logFault = (line: string) => {
    faultFigures.log.push(line);
    say(`fault: ${line}`);
  };
  const actions = faultActions({
    system,
    control,
    positions,
    onKilled: (batches) => (faultFigures.batchesInFlightOnKilled += batches),
    kafka: infra.kafka,
    restartBrokerAfterS: args.restartBrokerAfterS,
    onBrokerKilled: (node, failoverMs) => {
      faultFigures.brokerKilled = node;
      faultFigures.leaderFailoverMs = failoverMs;
    },
    later: (work) => faultFigures.later.push(work),
    log: logFault,
    startSmallSend: () => {
      smallSend = small.send().then(
        ({ ms, queuedMs }) => {
          faultFigures.smallSendLatencyMs = ms;
          const queued = queuedMs === undefined ? '' : ` (fan-out done ${queuedMs} ms after the request)`;
          logFault(ms === null ? `small send: not all 10 devices delivered within 60 s${queued}` : `small send: all 10 delivered ${ms.toFixed(0)} ms after the request${queued}`);
        },
        (error: unknown) => {
          faultFigures.smallSendLatencyMs = null;
          logFault(`small send failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    },
  });
  // Each fault's line says how many duplicates there were when it started and when its action ended.
  const counted = Object.fromEntries(
    Object.entries(actions).map(([name, act]) => [
      name,
      async () => {
        const before = result.campaign.duplicates;
        const line = await act();
        return `${line} (duplicates so far: ${before} when it started, ${result.campaign.duplicates} when done)`;
      },
    ]),
  ) as typeof actions;
  const faults = createFaultRunner(args.faults, args.devices, counted, logFault);
  const steer = steerWhenReached({ baseUrl: system.baseUrl, apiKey: system.project.apiKey, devices: args.devices, pauseAt: args.pauseAt, resumeAfterS: args.resumeAfterS, figures: steered, campaign: result.campaign, say });
  say('sending one notification to all of them');
  await runCampaign({
    baseUrl: system.baseUrl,
    apiKey: system.project.apiKey,
    apns: system.apns,
    fcm: system.fcm,
    ...(webCount === 0 ? {} : { webpush: system.webpush }),
    ...(huaweiCount === 0 ? {} : { hms: system.hms }),
    devices: args.devices,
    positions,
    deadline,
    figures: result.campaign,
    progress,
    onFirstDelivery: () => watch.mark((phase = 'sending')),
    onAllDelivered: () => watch.mark((phase = 'completing')),
    onDistinct: (distinct) => {
      faults.check(distinct);
      steer(distinct);
    },
    ratePerMinute: args.ratePerMinute,
    content: content === undefined ? undefined : templateNotification(content),
    onOtherDevice: (index) => small.delivered(index),
  });
  await faults.settled();
  await smallSend;
  await Promise.all(faultFigures.later);

  watch.mark((phase = 'judging'));
  const notificationId = result.campaign.notificationId;
  if (notificationId !== undefined) {
    judged = await judgeRun({ baseUrl: system.baseUrl, apiKey: system.project.apiKey, notificationId, positions, infra, progress });
    if (args.splitDeliveryRoles) ledgerPushes = await readLedgerSentByProvider(infra.mongo.db, notificationId).catch(() => undefined);
  }
}

try {
  await main();
} catch (error) {
  // After a signal or the watchdog, the shutdown under way makes things fail here: that is not the story.
  if (finishing === undefined) {
    result.status = error instanceof DeadlineExceeded ? 'timeout' : 'error';
    result.error = error instanceof Error ? error.message : String(error);
    say(result.error);
  }
}
if (finishing === undefined) {
  await finish();
  // Non-zero when the run failed or the judge found a condition unmet (printed above).
  process.exit(result.status === 'ok' && summary?.passed === true ? 0 : 1);
}
