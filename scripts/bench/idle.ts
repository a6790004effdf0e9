// `npm run bench:idle -- [--pending N] [--finished N] [--seconds S] [--json]`: what an idle stack
// costs with schedules stored (issue 17, "idle is idle"). Starts Kafka, the store and the services
// as the campaign bench does, stores N pending schedules (a day ahead, each with a few KB of data)
// and lets F more fire and finish, then measures every process group's CPU while nothing is sent.
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { ScheduleStore } from '@herald/mongo';
import { setUpInfra, type BenchInfra } from './infra.ts';
import { startSystem, type BenchSystem } from './system.ts';
import { ProcessWatch } from './proc.ts';
import { emitJson } from './runs.ts';

const HELP = `npm run bench:idle -- [options]
  --pending N    schedules pending (send_at a day ahead) while idle (default 1000)
  --finished N   schedules that fire and finish before the idle phase (default 100)
  --seconds S    length of the idle phase (default 30)
  --json         one JSON summary as the last line of stdout`;

const { values } = parseArgs({ options: { pending: { type: 'string' }, finished: { type: 'string' }, seconds: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } } });
if (values.help === true) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
const whole = (text: string | undefined, name: string, fallback: number, max: number) => {
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    process.stderr.write(`--${name} must be a whole number from 0 to ${max}\n${HELP}\n`);
    process.exit(2);
  }
  return value;
};
const args = { pending: whole(values.pending, 'pending', 1000, 100_000), finished: whole(values.finished, 'finished', 100, 10_000), seconds: whole(values.seconds, 'seconds', 30, 600), json: values.json === true };

/** The idle target: Herald's processes and the store together, in % of one core. */
const TARGET_PCT = 10;
const say = (line: string) => process.stderr.write(`[bench:idle] ${line}\n`);
const watch = new ProcessWatch();
watch.add('bench', process.pid);
watch.start();
let infra: BenchInfra | undefined;
let system: BenchSystem | undefined;

async function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: { data?: { id?: string; status?: string } } }> {
  const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as { data?: { id?: string; status?: string } } };
}

/** Sends `count` notifications to one device at `sendAt`, `inFlight` at once; answers their ids. */
async function schedule(base: string, key: string, deviceId: string, count: number, sendAt: () => string): Promise<string[]> {
  const ids: string[] = [];
  // A few KB per request, as campaigns carry: the scheduler must not read them while idle.
  const data = Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`field_${n}`, 'x'.repeat(100)]));
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const answer = await call(base, key, 'POST', '/api/v1/notifications', { notification: { title: 'later', body: 'a scheduled send', targets: [{ device_id: deviceId }], send_at: sendAt(), data } });
      if (answer.status !== 201 && answer.status !== 202) throw new Error(`POST /api/v1/notifications answered ${answer.status}`);
      ids.push(answer.body.data!.id!);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return ids;
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

async function main(): Promise<number> {
  infra = await setUpInfra({ partitions: 6, say });
  const control = infra.control;
  if (control !== undefined) {
    watch.add('kafka', { pids: () => control.kafkaPids() });
    watch.add('store', { pids: () => control.storePids(), tree: true });
  }
  system = await startSystem(infra, { latencyMs: 0, partitions: 6, deliveryInstances: 1, projectorInstances: 1 });
  const running = system;
  watch.add('fakes', system.fakesPid);
  for (const service of ['api', 'projector', 'delivery'] as const) watch.add(service, { pids: () => running.pidsOf(service) });
  const { baseUrl, project } = system;

  const device = await fetch(`${baseUrl}/api/v1/devices`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: project.id, token: 'a5'.repeat(32), platform: 'ios' }) });
  if (device.status !== 201) throw new Error(`registering the device answered ${device.status}`);
  const deviceId = ((await device.json()) as { data: { id: string } }).data.id;
  await waitUntil('the device projected', async () => (await call(baseUrl, project.apiKey, 'GET', `/api/v1/devices/${deviceId}`)).status === 200, 60_000);

  say(`scheduling ${args.finished} sends that fire now and ${args.pending} for tomorrow`);
  const soon = new Date(Date.now() + 5_000).toISOString();
  const finished = await schedule(baseUrl, project.apiKey, deviceId, args.finished, () => soon);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const pending = await schedule(baseUrl, project.apiKey, deviceId, args.pending, () => tomorrow);
  const statusOf = async (id: string) => (await call(baseUrl, project.apiKey, 'GET', `/api/v1/notifications/${id}`)).body.data?.status;
  const schedules = new ScheduleStore(infra.mongo.db);
  await waitUntil('every pending send held', async () => (await schedules.countByState()).pending >= args.pending, 300_000);
  for (const id of finished) await waitUntil(`scheduled send ${id} sent`, async () => (await statusOf(id)) === 'sent', 120_000);
  if (pending.length > 0 && (await statusOf(pending.at(-1)!)) !== 'scheduled') throw new Error('a send for tomorrow is not scheduled');
  const counted = await schedules.countByState();
  const stored = { pending: counted.pending, finished_kept: counted.kept };
  // Let the sends' own work (projections, reports, the finished schedules' clean-up) settle first.
  await sleep(10_000);

  say(`idle for ${args.seconds} s`);
  watch.mark('idle');
  await sleep(args.seconds * 1000);
  watch.mark('end');
  watch.stop();
  const [idle] = watch.phases();
  const pct = Object.fromEntries(Object.entries(idle!.cpuS).map(([group, seconds]) => [group, Math.round((1000 * seconds) / idle!.wallS) / 10]));
  const heraldAndStore = Math.round(10 * ['api', 'projector', 'delivery', 'store'].reduce((sum, group) => sum + (pct[group] ?? 0), 0)) / 10;
  const summary = { pending: args.pending, finished: args.finished, stored, idle_s: Math.round(idle!.wallS), cpu_pct_of_one_core: pct, herald_and_store_pct: heraldAndStore, target_pct: TARGET_PCT, others_pct: idle!.otherCpuS === null ? null : Math.round((1000 * idle!.otherCpuS) / idle!.wallS) / 10, passed: heraldAndStore < TARGET_PCT };
  process.stdout.write(`\nIdle for ${summary.idle_s} s with ${stored.pending} pending schedules (${args.finished} fired and finished; ${stored.finished_kept} finished still stored)\n`);
  for (const [group, value] of Object.entries(pct)) process.stdout.write(`  ${group.padEnd(10)} ${value.toFixed(1).padStart(6)} % of one core\n`);
  process.stdout.write(`  api + projector + delivery + store: ${heraldAndStore} % (target < ${TARGET_PCT} %): ${summary.passed ? 'met' : 'MISSED'}; others on the machine ${summary.others_pct ?? '?'} %\n`);
  process.stdout.write(`BENCH_JSON ${JSON.stringify(summary)}\n`);
  if (args.json) emitJson('idle', summary);
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  say(`failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await system?.close().catch((error: unknown) => say(`stopping services: ${String(error)}`));
  await infra?.close(false).catch((error: unknown) => say(`stopping infra: ${String(error)}`));
}
process.exit(code);
