// Fuzzes the API with schemathesis over its own OpenAPI document (/docs/json):
// zero 5xx and zero responses that break their documented schema. Installs a
// pinned schemathesis into a venv under .herald/, starts its own Kafka + store
// (free ports, a temp data dir), a project (via the CLI) and the API with rate
// limits off, runs schemathesis with the project's key, then stops everything.
//
//   npm run fuzz                          # bounded, as CI runs it (FUZZ_MAX_EXAMPLES=20 per operation)
//   FUZZ_MAX_EXAMPLES=500 npm run fuzz    # longer; extra arguments go to `schemathesis run`
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// Deep import on purpose: @herald/testing's index loads vitest.
import { freePort, startLocalInfra } from '../libs/local-infra/src/index.ts';
import { startServiceProcessRetrying, type ServiceProcess } from '../libs/testing/src/service-process.ts';

const SCHEMATHESIS_VERSION = '4.32.5';
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VENV = join(REPO_ROOT, '.herald', 'fuzz-venv');
const run = promisify(execFile);
const say = (line: string) => process.stderr.write(`fuzz: ${line}\n`);

async function ensureSchemathesis(): Promise<string> {
  const bin = join(VENV, 'bin', 'schemathesis');
  if (existsSync(bin)) {
    const { stdout } = await run(bin, ['--version']).catch(() => ({ stdout: '' }));
    if (stdout.includes(SCHEMATHESIS_VERSION)) return bin;
  }
  say(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${VENV}`);
  await run('python3', ['-m', 'venv', '--clear', VENV]);
  await run(join(VENV, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], { maxBuffer: 64 * 1024 * 1024 });
  return bin;
}

async function main(): Promise<number> {
  const schemathesis = await ensureSchemathesis();
  const dataDir = await mkdtemp(join(tmpdir(), 'herald-fuzz-'));
  const settings = { dataDir, kafkaPort: await freePort(), kafkaControllerPort: await freePort(), mongoPort: await freePort(), onOutput: say };
  say(`starting Kafka and the store in ${dataDir}`);
  const infra = await startLocalInfra(settings);
  let api: ServiceProcess | undefined;
  try {
    const env = {
      KAFKA_BROKERS: infra.kafkaBrokers,
      MONGO_URL: `${infra.mongoUrl.replace(/\/$/, '')}/fuzz`,
      KAFKA_PARTITIONS: '1',
      // info: the API's ready line ('Server listening at') is an info-level log.
      LOG_LEVEL: 'info',
    };
    const created = await run(process.execPath, ['services/cli/src/main.ts', 'projects', 'create', 'fuzz', '--json'], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
    const project = JSON.parse(created.stdout) as { id: string; api_key: string };
    const port = await freePort();
    api = await startServiceProcessRetrying('services/api/src/server.ts', { ...env, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: '0', HERALD_RATE_LIMITS: 'off' }, 'Server listening at');
    const base = `http://127.0.0.1:${port}`;
    const args = [
      '--config-file',
      join(REPO_ROOT, 'scripts', 'schemathesis.toml'),
      'run',
      `${base}/docs/json`,
      '--url',
      base,
      '--checks',
      'not_a_server_error,response_schema_conformance',
      '--max-examples',
      process.env.FUZZ_MAX_EXAMPLES ?? '20',
      '--header',
      `Authorization: Bearer ${project.api_key}`,
      '--generation-database',
      ':memory:',
      '--request-timeout',
      '10',
      // An event stream never ends by design (a request timeout is all fuzzing would find); event-stream.e2e.test.ts covers it.
      '--exclude-path',
      '/api/v1/events',
      ...process.argv.slice(2),
    ];
    say(`schemathesis ${args.join(' ').replace(project.api_key, '<api key>')}`);
    const child = spawn(schemathesis, args, { cwd: dataDir, stdio: 'inherit', env: { ...process.env, SCHEMATHESIS_HOOKS: '' } });
    return await new Promise<number>((resolveCode) => child.on('exit', (code) => resolveCode(code ?? 1)));
  } finally {
    await api?.stop();
    await infra.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main().catch((error: unknown) => {
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
});
