/**
 * bench:reads — what the API's lists and lookups cost as the store grows
 * (issue 21). Seeds devices, topics, notifications and delivery receipts for
 * several projects through Kafka (the projector builds the read models, as
 * in production), registers the last devices through the API (anonymous,
 * `--in-flight` at once) to measure the registration rate with everything
 * else stored, checks that every project's listed totals equal what was
 * seeded, then loads each list and lookup endpoint with `--clients`
 * concurrent clients. See scripts/bench/README.md ("Read benchmark").
 */
import { loadavg } from 'node:os';
import { deviceIdFor } from '@herald/events';
import { Deadline, DeadlineExceeded } from './deadline.ts';
import { setUpInfra } from './infra.ts';
import { PositionReader } from './offsets.ts';
import { parseReadsArgs } from './reads-args.ts';
import { measure, registerThroughApi, type Endpoint, type Watched } from './reads-load.ts';
import { formatReads, judgeTargets, machine, type ReadsSummary } from './reads-report.ts';
import { benchPlatform, benchToken, createProjects, isUnregistered, seedThroughKafka, waitProjected, type SeededProject } from './reads-seed.ts';
import { startReadSystem } from './reads-system.ts';
import { emitJson } from './runs.ts';

const args = parseReadsArgs(process.argv.slice(2));
const say = (line: string) => process.stderr.write(`${line}\n`);
let lastProgress = 0;
const progress = (text: string) => {
  if (Date.now() - lastProgress < 5_000) return;
  lastProgress = Date.now();
  say(`  ${text}`);
};
const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
const pagesOf = (count: number) => Math.max(1, Math.ceil(count / 20));

/** The read endpoints, with requests spread over pages and ids of a large, a middle and the one-device project. */
function endpoints(projects: readonly SeededProject[], receiptDevices: number): Endpoint[] {
  const large = projects[0]!;
  const middle = projects[1]!;
  const one = projects.at(-1)!;
  const device = (project: SeededProject) => deviceIdFor(project.id, benchToken(projects.indexOf(project), random(project.devices)));
  const list: Endpoint[] = [
    { name: 'devices: large project, page 1', apiKey: large.apiKey, path: () => '/api/v1/devices?limit=20' },
    { name: 'devices: large project, random page', apiKey: large.apiKey, path: () => `/api/v1/devices?limit=20&page=${1 + random(pagesOf(large.devices))}` },
    { name: 'devices: large project, inactive, random page', apiKey: large.apiKey, path: () => `/api/v1/devices?status=inactive&limit=20&page=${1 + random(pagesOf(large.devices / 20))}` },
    { name: 'devices: middle project, random page', apiKey: middle.apiKey, path: () => `/api/v1/devices?limit=20&page=${1 + random(pagesOf(middle.devices))}` },
    { name: 'devices: one-device project', apiKey: one.apiKey, path: () => '/api/v1/devices?limit=20', alone: true },
    { name: 'devices: large project, by token', apiKey: large.apiKey, path: () => `/api/v1/devices?token=${benchToken(0, random(large.devices))}` },
    { name: 'device by id: large project', apiKey: large.apiKey, path: () => `/api/v1/devices/${device(large)}`, alone: true },
    { name: 'device by id: one-device project', apiKey: one.apiKey, path: () => `/api/v1/devices/${device(one)}` },
    { name: 'notifications: large project, page 1', apiKey: large.apiKey, path: () => '/api/v1/notifications?limit=20' },
    { name: 'notifications: large project, random page', apiKey: large.apiKey, path: () => `/api/v1/notifications?limit=20&page=${1 + random(pagesOf(large.notifications))}` },
    { name: 'notifications: large project, cancelled, random page', apiKey: large.apiKey, path: () => `/api/v1/notifications?status=cancelled&limit=20&page=${1 + random(pagesOf(large.notifications / 10))}` },
    { name: 'notifications: middle project, random page', apiKey: middle.apiKey, path: () => `/api/v1/notifications?limit=20&page=${1 + random(pagesOf(middle.notifications))}` },
    { name: 'notifications: one-notification project', apiKey: one.apiKey, path: () => '/api/v1/notifications?limit=20' },
    { name: 'notification by id: large project', apiKey: large.apiKey, path: () => `/api/v1/notifications/${pick(large.notificationIds)}`, alone: true },
    { name: 'topics: large project', apiKey: large.apiKey, path: () => '/api/v1/topics' },
  ];
  if (large.withReceipts.length > 0) {
    list.push({ name: `receipts: ${receiptDevices.toLocaleString('en-US')}-device notification, random page`, apiKey: large.apiKey, path: () => `/api/v1/notifications/${pick(large.withReceipts)}/receipts?limit=20&page=${1 + random(pagesOf(receiptDevices))}` });
  }
  return list;
}

/** Every project's totals as the API lists them, against what was seeded (the counters are the only source of these totals). */
async function checkCounts(baseUrl: string, projects: readonly SeededProject[], viaApi: number): Promise<string[]> {
  const problems: string[] = [];
  const total = async (key: string, path: string) => ((await (await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { pagination: { count: number } }).pagination.count;
  for (const [index, project] of projects.entries()) {
    const viaKafka = index === 0 ? project.devices - viaApi : project.devices;
    let inactive = 0;
    for (let device = 0; device < viaKafka; device += 1) if (isUnregistered(device)) inactive += 1;
    const checks: Array<[string, string, number]> = [
      ['devices', '/api/v1/devices?limit=1', project.devices],
      ['inactive devices', '/api/v1/devices?limit=1&status=inactive', inactive],
      ['notifications', '/api/v1/notifications?limit=1', project.notifications],
      ['cancelled notifications', '/api/v1/notifications?limit=1&status=cancelled', Math.floor(project.notifications / 10)],
    ];
    for (const [what, path, expected] of checks) {
      const listed = await total(project.apiKey, path);
      if (listed !== expected) problems.push(`project ${index}: ${listed} ${what} listed, ${expected} seeded`);
    }
  }
  return problems;
}

async function run(summary: ReadsSummary): Promise<void> {
  const deadline = new Deadline(args.timeoutS);
  const infra = await setUpInfra({ partitions: args.partitions, say });
  summary.infra = `${infra.kind.kafka} + ${infra.kind.mongo}`;
  const positions = new PositionReader(infra.kafka);
  let system: Awaited<ReturnType<typeof startReadSystem>> | undefined;
  try {
    system = await startReadSystem(infra, args.partitions);
    await positions.connect();
    const projects = await createProjects(infra.mongo.db, args.projects, args.devices, args.notifications);
    say(`seeding ${args.devices - args.apiRegistrations} devices and ${args.notifications} notifications through Kafka`);
    const seeded = await seedThroughKafka(infra.producer, projects, { viaApi: args.apiRegistrations, receiptNotifications: args.receiptNotifications, receiptDevices: args.receiptDevices, deadline, progress });
    const projectedS = await waitProjected(positions, deadline, progress);
    summary.seeding = { events: seeded.events, publishS: seeded.seconds, projectedS, perSecond: seeded.events / (seeded.seconds + projectedS) };

    const large = projects[0]!;
    say(`registering ${args.apiRegistrations} devices through the API (${args.inFlight} in flight)`);
    const bodies = (function* () {
      for (let device = large.devices - args.apiRegistrations; device < large.devices; device += 1) {
        yield { project_id: large.id, token: benchToken(0, device), platform: benchPlatform(device), topics: [`bench-topic-${device % 5}`] };
      }
    })();
    const apiPid = system.api.pid;
    const watched: Watched = { store: () => infra.control?.storePids() ?? [], api: () => (apiPid === undefined ? [] : [apiPid]) };
    const registered = await registerThroughApi(system.baseUrl, bodies, { inFlight: args.inFlight, watched, progress: (done) => progress(`${done}/${args.apiRegistrations} registered through the API`) });
    summary.registration = { storedBefore: args.devices - args.apiRegistrations, inFlight: args.inFlight, ...registered };
    await waitProjected(positions, deadline, progress);

    const problems = await checkCounts(system.baseUrl, projects, args.apiRegistrations);
    summary.countsMatch = problems.length === 0;
    if (problems.length > 0) summary.countProblems = problems;

    for (const endpoint of endpoints(projects, Math.min(args.receiptDevices, large.devices - args.apiRegistrations))) {
      deadline.check('reading', `${summary.reads.length} endpoints measured`);
      for (const clients of endpoint.alone === true && args.clients > 1 ? [args.clients, 1] : [args.clients]) {
        const result = await measure(system.baseUrl, endpoint, { clients, requests: args.requests, watched });
        if (clients !== args.clients) result.name = `${endpoint.name} (1 client)`;
        say(`  ${result.name}: p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, store ${Math.round(result.storeCpuUs ?? 0)} µs/req`);
        summary.reads.push(result);
      }
    }
  } finally {
    await positions.disconnect().catch(() => undefined);
    await system?.close();
    await infra.close(args.keep);
  }
}

const summary: ReadsSummary = { status: 'ok', devices: args.devices, projects: args.projects, notifications: args.notifications, infra: '', machine: machine(), reads: [], clients: args.clients, targets: [] };
try {
  await run(summary);
} catch (error) {
  summary.status = error instanceof DeadlineExceeded ? 'timeout' : 'error';
  summary.error = error instanceof Error ? error.message : String(error);
}
summary.machine.loadavg1AtEnd = loadavg()[0] ?? 0;
summary.targets = judgeTargets(summary);
process.stdout.write(`${formatReads(summary)}\n`);
process.stdout.write(`BENCH_JSON ${JSON.stringify(summary)}\n`);
if (args.json) emitJson('reads', summary);
process.exit(summary.status === 'ok' && summary.countsMatch === true ? 0 : 1);
