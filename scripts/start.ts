// `npm start`: Herald in one terminal. Starts local Kafka + FerretDB when
// KAFKA_BROKERS / MONGO_URL are unset (HERALD_KAFKA_BROKERS_LOCAL=3: a
// three-broker Kafka cluster; and fake APNs/FCM when their endpoints are unset), then the API, the projector, delivery and webhooks with prefixed,
// readable logs; creates a demo project on first run. Ctrl-C stops
// everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { AdminStore, localSecretKey } from '@herald/admin';
import { connectMongo } from '@herald/mongo';
import { startLocalInfra, type LocalInfra } from '@herald/local-infra';
import { startLocalProviders, type LocalProviders } from './local/local-providers.ts';
import { restrictToOwner, serviceEnv, stackSettings, type StackSettings } from './local/stack-settings.ts';
import { nodeFlagsFor, serviceEnvFor } from '@herald/runtime';
import { existsSync } from 'node:fs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const say = (line: string) => process.stdout.write(`[herald] ${line}\n`);
/** Services stop within their own 8 s deadline; past this one they are killed, so Ctrl-C always ends `npm start`. */
const KILL_AFTER_MS = 9_000;

const asked = stackSettings(process.env, join(root, '.herald'));
if ('problems' in asked) {
  for (const problem of asked.problems) say(problem);
  process.exit(1);
}
const settings: StackSettings = asked;
const { stateDir } = settings;
// Everything this script and its children create under the state dir is the owner's only (tokens, secrets, segments).
process.umask(0o077);
await mkdir(stateDir, { recursive: true });
await restrictToOwner(stateDir);

const SERVICES = [
  { name: 'api', entry: 'services/api/src/server.ts', ready: 'Server listening at' },
  { name: 'projector', entry: 'services/projector/src/main.ts', ready: 'projector consuming' },
  { name: 'delivery', entry: 'services/delivery/src/main.ts', ready: 'delivery consuming' },
  { name: 'webhooks', entry: 'services/webhooks/src/main.ts', ready: 'webhooks running' },
] as const;

let infra: LocalInfra | undefined;
let providers: LocalProviders | undefined;
const children: ChildProcess[] = [];
let stopping: Promise<void> | undefined;

/** Stops the services (they drain on SIGTERM), then the infrastructure this script started. */
function stopAll(code: number): void {
  // Ctrl-C reaches npm, this script and the services at once, and npm may
  // signal again: every later signal waits for the one shutdown under way.
  stopping ??= (async () => {
    say('stopping…');
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const kill = setTimeout(() => {
              say(`a service (pid ${String(child.pid)}) did not stop within ${KILL_AFTER_MS / 1000} s: killing it`);
              child.kill('SIGKILL');
            }, KILL_AFTER_MS);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await providers?.close();
    if (infra !== undefined) {
      say('stopping local Kafka and FerretDB');
      await infra.stop().catch((error: unknown) => say(`could not stop local infrastructure: ${String(error)}`));
    }
    say('stopped');
    process.exit(code);
  })();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
process.on('SIGHUP', () => stopAll(0));

const env: Record<string, string | undefined> = { ...process.env };
if (env.KAFKA_BROKERS === undefined || env.MONGO_URL === undefined) {
  say('KAFKA_BROKERS / MONGO_URL unset: starting local Kafka and FerretDB (first run downloads and builds them)');
  try {
    infra = await startLocalInfra({ dataDir: join(stateDir, 'data'), ...settings.infraPorts, brokers: settings.kafkaBrokers, onOutput: (line) => say(line) });
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    say('Alternatives: set KAFKA_BROKERS and MONGO_URL to running servers, or `docker compose up`.');
    process.exit(1);
  }
  env.KAFKA_BROKERS ??= infra.kafkaBrokers;
  env.MONGO_URL ??= `${infra.mongoUrl.replace(/\/$/, '')}/herald`;
}
// Local mode (no HERALD_SECRET_KEY given): webhooks may also call http:// receivers on loopback (docs/webhooks.md).
if (env.HERALD_SECRET_KEY === undefined) env.WEBHOOKS_LOCAL ??= 'on';
// The same for web push subscriptions: the local fake push service answers on loopback.
if (env.HERALD_SECRET_KEY === undefined) env.WEBPUSH_LOCAL ??= 'on';
env.HERALD_SECRET_KEY ??= (await localSecretKey(stateDir, { create: true }))!;
// Delivery's audience index lives with the rest of local mode's state.
env.DELIVERY_INDEX_DIR ??= join(stateDir, 'delivery');
if (env.APNS_ENDPOINT === undefined && env.FCM_ENDPOINT === undefined) {
  providers = await startLocalProviders(stateDir, (line) => process.stdout.write(`[providers] ${line}\n`));
  Object.assign(env, providers.env);
  say(`APNS_ENDPOINT / FCM_ENDPOINT unset: fake APNs at ${providers.env.APNS_ENDPOINT}, fake FCM at ${providers.env.FCM_ENDPOINT}`);
}

function startService(service: (typeof SERVICES)[number]): Promise<void> {
  const child = spawn(process.execPath, [...nodeFlagsFor(service.entry), join(root, service.entry)], { env: serviceEnvFor(service.entry, serviceEnv(env, service.name, settings)), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const prettify = prettyFactory({ colorize: process.stdout.isTTY, ignore: 'pid,hostname,name', translateTime: 'HH:MM:ss.l' });
  return new Promise((ready, failed) => {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        let text = line;
        if (line.startsWith('{')) {
          try {
            text = prettify(JSON.parse(line)).trimEnd();
          } catch {
            // not a log line after all: print as is
          }
        }
        process.stdout.write(`[${service.name.padEnd(9)}] ${text}\n`);
        if (line.includes(service.ready)) ready();
      });
    }
    child.once('exit', (code) => {
      failed(new Error(`${service.name} exited with ${String(code)}`));
      if (stopping === undefined) {
        say(`${service.name} exited (${String(code)}); stopping the rest`);
        stopAll(1);
      }
    });
  });
}

/** The demo project's key is kept in .herald/demo.json so every start prints the same curl line. */
async function demoProject(): Promise<{ id: string; api_key: string; webSubscription?: unknown }> {
  const file = join(stateDir, 'demo.json');
  const mongo = await connectMongo(env.MONGO_URL!, 'herald-start');
  try {
    const admin = new AdminStore(mongo.db);
    const saved = await readFile(file, 'utf8').then((text) => JSON.parse(text) as { id: string; api_key: string }, () => undefined);
    let demo = saved;
    if (demo === undefined || (await admin.projectForKey(demo.api_key)) !== demo.id) {
      const { project, apiKey } = await admin.createProject('demo');
      demo = { id: project._id, api_key: apiKey };
      await mkdir(stateDir, { recursive: true });
      await writeFile(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
      say('created the demo project');
    }
    // Credentials the local fakes accept (the same every start), Web Push keys, and a subscription of the fake push service.
    const configured = await providers?.configure(mongo.db, env.HERALD_SECRET_KEY!, demo.id);
    return { ...demo, ...(configured === undefined ? {} : { webSubscription: configured.webSubscription }) };
  } finally {
    await mongo.close();
  }
}

// The console's static assets, built once (`npm run console:build` builds them again).
if (!existsSync(join(root, 'services/console/dist/index.html'))) {
  say('building the console (services/console) once');
  const { buildConsole } = await import('@herald/console/build');
  await buildConsole({ quiet: true });
}

try {
  await Promise.all(SERVICES.map(startService));
} catch (error) {
  say(String(error));
  stopAll(1);
  await stopping;
}
const demo = await demoProject();
const base = `http://${env.HOST ?? '127.0.0.1'}:${env.PORT ?? '3000'}`;
say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s — API ${base}, OpenAPI ${base}/docs`);
say(`demo project ${demo.id}, API key ${demo.api_key}`);
say(`console ${base}/console/ — sign in with the demo API key above`);
say('register a device, list devices, then send it a notification:');
process.stdout.write(
  `  curl -s -X POST ${base}/api/v1/devices -H 'content-type: application/json' -d '{"project_id":"${demo.id}","token":"d0d0cafed0d0cafed0d0cafed0d0cafed0d0cafed0d0cafed0d0cafed0d0cafe","platform":"ios"}'\n` +
    `  curl -s ${base}/api/v1/devices -H 'Authorization: Bearer ${demo.api_key}'\n` +
    `  curl -s -X POST ${base}/api/v1/notifications -H 'Authorization: Bearer ${demo.api_key}' -H 'content-type: application/json' -d '{"notification":{"title":"Hello","body":"from Herald","targets":["d0d0cafed0d0cafed0d0cafed0d0cafed0d0cafed0d0cafed0d0cafed0d0cafe"]}}'\n`,
);
if (demo.webSubscription !== undefined) {
  say('a browser of the local fake push service registers as a web device (its PushSubscription.toJSON()):');
  process.stdout.write(
    `  curl -s -X POST ${base}/api/v1/devices -H 'content-type: application/json' -d '${JSON.stringify({ project_id: demo.id, platform: 'web', subscription: demo.webSubscription })}'\n` +
      `  curl -s '${base}/api/v1/webpush/public-key?project_id=${demo.id}'\n`,
  );
}
say('then follow it with the id it answered: status and counts, then every device\'s receipt:');
process.stdout.write(
  `  curl -s ${base}/api/v1/notifications/<id> -H 'Authorization: Bearer ${demo.api_key}'\n` +
    `  curl -s ${base}/api/v1/notifications/<id>/receipts -H 'Authorization: Bearer ${demo.api_key}'\n`,
);
say('Ctrl-C stops everything.');
