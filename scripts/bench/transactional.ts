// `npm run bench:transactional -- --sends 10000 --concurrency 32`: registers
// N devices through Kafka, then sends one notification per device through
// the HTTP API, each to that one device's token (codes, chat, activity: the
// sends a push platform mostly makes), closed or open loop, and prints POST
// rate and latency, notifications/s end to end, request → delivered
// percentiles and CPU per notification by process group. Judged: every send
// delivered once, every notification's counts equal the ledger, nothing
// dead-lettered. Figures only: nothing here asserts on time. See README.md.
import { TOPICS } from '@herald/events';
import { Deadline, DeadlineExceeded, endRunOnTimeoutOrSignal } from './deadline.ts';
import { waitForIndex, watchIndexMemory } from './index-watch.ts';
import { setUpInfra, type BenchInfra } from './infra.ts';
import { PositionReader } from './offsets.ts';
import { ProcessWatch } from './proc.ts';
import { publishDevices, waitForProjection } from './register.ts';
import { machineInfo } from './report.ts';
import { startSystem, type BenchSystem } from './system.ts';
import { parseTransactionalArgs, TRANSACTIONAL_USAGE } from './transactional-args.ts';
import { judgeSends, type TransactionalJudgeFigures } from './transactional-judge.ts';
import { emptyLoadFigures, sendAll, trackDeliveries } from './transactional-load.ts';
import { buildTransactionalSummary, formatStageTimeline, formatTransactional, type StageSample, type TransactionalSummary } from './transactional-report.ts';
import { seedStored } from './transactional-seed.ts';
import { iosCountOf } from './transactional-stats.ts';
import { emitJson } from './runs.ts';

const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);
/** No new delivery for this long once every POST was answered: the rest will not come. */
const STALL_MS = 60_000;

const args = (() => {
  try {
    return parseTransactionalArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
})();
if (args.help) {
  process.stdout.write(`${TRANSACTIONAL_USAGE}\n`);
  process.exit(0);
}
const deadline = new Deadline(args.timeoutS);
const watch = new ProcessWatch();
watch.add('bench', process.pid);
watch.start();
const machine = machineInfo();

const run = {
  status: 'ok' as 'ok' | 'timeout' | 'error' | 'interrupted',
  error: undefined as string | undefined,
  reached: undefined as string | undefined,
  infra: 'none',
  publish: undefined as string | undefined,
  stored: undefined as string | undefined,
  indexBuildS: undefined as number | undefined,
  load: emptyLoadFigures(args.sends),
  judged: undefined as TransactionalJudgeFigures | undefined,
  timeline: [] as StageSample[],
};
let infra: BenchInfra | undefined;
let system: BenchSystem | undefined;
let positions: PositionReader | undefined;
let indexMemory: ReturnType<typeof watchIndexMemory> | undefined;
let finishing: Promise<void> | undefined;
let summary: TransactionalSummary | undefined;
let phase = 'start-up';
const progress = (text: string) => {
  run.reached = `${phase}: ${text}`;
};

function finish(): Promise<void> {
  finishing ??= (async () => {
    watch.mark('end');
    watch.stop();
    const phases = watch.phases();
    const judged = run.judged;
    summary = buildTransactionalSummary({
      status: run.status,
      sends: args.sends,
      concurrency: args.concurrency,
      rate: args.rate,
      stored: args.stored,
      partitions: args.partitions,
      load: run.load,
      rejected: system === undefined ? 0 : system.apns.stats.rejected + system.fcm.stats.rejected,
      judge: {
        deadLetters: judged?.deadLetters ?? null,
        countsChecked: judged?.countsChecked ?? 0,
        countsMismatched: judged?.countsMismatched ?? null,
        ledgerDelivered: judged?.ledgerDelivered ?? null,
      },
      phases,
      peakRssBytes: watch.peaks(),
      ...(run.indexBuildS === undefined ? {} : { indexBuildS: run.indexBuildS }),
      ...(indexMemory === undefined ? {} : { indexRssBytes: indexMemory.peakBytes() }),
    });
    indexMemory?.stop();
    const table = formatTransactional(summary, {
      ...(run.error === undefined ? {} : { error: run.error }),
      ...(run.reached === undefined ? {} : { reached: run.reached }),
      machine: `${machine.cpus} CPU (${machine.cpuModel}), node ${machine.node}, load avg at start ${machine.loadavg1AtStart.toFixed(2)}`,
      infra: run.infra,
      ...(run.publish === undefined ? {} : { publish: run.publish }),
      ...(run.stored === undefined ? {} : { stored: run.stored }),
      maxInFlight: run.load.maxInFlight,
      phases,
      cpus: machine.cpus,
    });
    const out = [
      `\nHerald transactional benchmark\n${table}${formatStageTimeline(run.timeline)}`,
      `BENCH_JSON ${JSON.stringify({ ...summary, machine, first_post_error: run.load.firstPostError ?? null, strays: run.load.strays, dead_letter_topics: judged?.deadLetterTopics ?? {}, mismatch_samples: judged?.mismatchSamples ?? [], phases, timeline: run.timeline })}`,
    ];
    out.push(`\nJudge: ${summary.passed ? 'PASSED' : `FAILED: ${summary.failures.join('; ')}`}`);
    if (run.load.firstPostError !== undefined) out.push(`  first POST error: ${run.load.firstPostError}`);
    for (const sample of judged?.mismatchSamples ?? []) out.push(`  counts ${JSON.stringify(sample.counts)} vs ledger ${JSON.stringify(sample.ledger)} for ${sample.id}`);
    process.stdout.write(`${out.join('\n')}\n`);
    // Last line of stdout, for scripts.
    if (args.json) emitJson('transactional', summary);

    say('shutting down');
    await positions?.disconnect().catch(() => undefined);
    await system?.close().catch((error: unknown) => say(`stopping services: ${String(error)}`));
    await infra?.close(args.keep).catch((error: unknown) => say(`stopping infra: ${String(error)}`));
  })();
  return finishing;
}

endRunOnTimeoutOrSignal({ run: run, timeoutS: args.timeoutS, phase: () => phase, finished: () => finishing !== undefined, finish, say });

/** Until every send was delivered, or no delivery came for STALL_MS after the last POST was answered, or the deadline. */
async function waitDelivered(all: Promise<void>, lastDeliveryAt: () => number, postsDoneAt: number): Promise<void> {
  let done = false;
  void all.then(() => (done = true));
  while (!done) {
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 1000))]);
    if (done) return;
    if (performance.now() - Math.max(lastDeliveryAt(), postsDoneAt) > STALL_MS) {
      say(`no delivery for ${STALL_MS / 1000} s: ${run.load.distinct}/${args.sends} delivered; judging what arrived`);
      return;
    }
    deadline.check('delivering', `${run.load.distinct}/${args.sends} delivered`);
    progress(`${run.load.distinct}/${args.sends} delivered`);
  }
}

/** Every 2 s while sending: POSTs answered, sends delivered, and the backlog of each stage of the send path. */
function sampleStages(reader: PositionReader): () => Promise<void> {
  let sampling = true;
  const t0 = performance.now();
  const loop = (async () => {
    while (sampling) {
      await new Promise((done) => setTimeout(done, 2_000));
      if (!sampling) break;
      const lags = await reader.stageLags().catch(() => undefined);
      const answered = run.load.answered.reduce((count, at) => (Number.isNaN(at) ? count : count + 1), 0);
      run.timeline.push({ t: Math.round((performance.now() - t0) / 100) / 10, answered, delivered: run.load.distinct, ...(lags === undefined ? {} : { lags }) });
    }
  })();
  return async () => {
    sampling = false;
    await loop;
  };
}

async function main(): Promise<void> {
  watch.mark('start-up');
  infra = await setUpInfra({ partitions: args.partitions, say });
  run.infra = `${infra.kind.kafka} + ${infra.kind.mongo}`;
  const control = infra.control;
  if (control !== undefined) {
    watch.add('kafka', { pids: () => control.kafkaPids() });
    watch.add('store', { pids: () => control.storePids(), tree: true });
  }
  system = await startSystem(infra, { latencyMs: args.latencyMs, partitions: args.partitions, deliveryInstances: 1, projectorInstances: 1, deliveryTimes: true });
  const running = system;
  watch.add('fakes', system.fakesPid);
  for (const service of ['api', 'projector', 'delivery'] as const) watch.add(service, { pids: () => running.pidsOf(service) });
  positions = new PositionReader(infra.kafka);
  await positions.connect();
  indexMemory = watchIndexMemory(() => running.deliveryIndexDirs());
  say(`services up; project ${system.project.id}; prefix ${infra.prefix}`);

  if (args.stored > 0) {
    watch.mark((phase = 'store'));
    say(`storing ${args.stored} notifications through Kafka`);
    const seeded = await seedStored(infra.producer, positions, { projectId: system.project.id, stored: args.stored, deadline, progress });
    run.stored = `published in ${seeded.publishS.toFixed(1)} s, expired and projected ${seeded.projectedS.toFixed(1)} s later`;
  }

  watch.mark((phase = 'publish'));
  say(`registering ${args.sends} devices through Kafka (${iosCountOf(args.sends)} iOS)`);
  const publishStart = performance.now();
  const published = await publishDevices(infra.producer, { projectId: system.project.id, devices: args.sends, iosCount: iosCountOf(args.sends), deadline, progress });
  watch.mark((phase = 'projection'));
  const indexed = waitForIndex({ metricsUrls: () => running.deliveryMetricsUrls(), ends: await positions.ends(TOPICS.deviceEvents), deadline, progress: () => undefined });
  indexed.catch(() => undefined);
  const projected = await waitForProjection(infra.mongo.db, positions, { devices: args.sends, deadline, progress });
  watch.mark((phase = 'index'));
  run.indexBuildS = ((await indexed) - publishStart) / 1000;
  run.publish = `${Math.round(args.sends / published.seconds)}/s in ${published.seconds.toFixed(1)} s; projected ${projected.caughtUpS.toFixed(1)} s after`;

  // Counters of anything before (none expected) are dropped; then every accepted push is matched to its send.
  await system.apns.reset();
  const tracker = trackDeliveries(system, run.load);
  watch.mark((phase = 'sending'));
  say(`${args.sends} one-device sends, ${args.rate === undefined ? `${args.concurrency} in flight` : `${args.rate}/s offered`}`);
  const stopSampling = sampleStages(positions);
  try {
    await sendAll({ baseUrl: system.baseUrl, apiKey: system.project.apiKey, concurrency: args.concurrency, rate: args.rate, deadline, figures: run.load, progress });
    await waitDelivered(tracker.all, tracker.lastDeliveryAt, performance.now());
  } finally {
    await stopSampling();
  }
  watch.mark((phase = 'completing'));
  tracker.stop();

  const ids = run.load.ids.filter((id): id is string => id !== undefined);
  run.judged = await judgeSends({
    baseUrl: system.baseUrl,
    apiKey: system.project.apiKey,
    ids,
    positions,
    infra,
    progress,
    onCaughtUp: () => watch.mark((phase = 'judging')),
  });
}

try {
  await main();
} catch (error) {
  if (finishing === undefined) {
    run.status = error instanceof DeadlineExceeded ? 'timeout' : 'error';
    run.error = error instanceof Error ? error.message : String(error);
    say(run.error);
  }
}
if (finishing === undefined) {
  await finish();
  process.exit(run.status === 'ok' && summary?.passed === true ? 0 : 1);
}
