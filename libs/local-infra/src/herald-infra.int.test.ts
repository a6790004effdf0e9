import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, kafkaPortsFree } from './free-port.ts';
import { INFRA_SCRIPT } from './local-infra.ts';

/**
 * The start script's watch over what it launched: a server that dies while
 * starting fails the start at once with its last log lines, and the start
 * stops the rest of what it launched. (The watch asks whether the process
 * still runs, not what its command line says: read during execve, that can
 * come back empty for a server that is starting fine.)
 */
let dataDir: string;
let env: NodeJS.ProcessEnv;

const run = async (command: string, extra: NodeJS.ProcessEnv = {}) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(INFRA_SCRIPT, [command], { env: { ...env, ...extra }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'herald-infra-test-'));
  env = {
    ...process.env,
    HERALD_DATA_DIR: dataDir,
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    FERRETDB_PORT: String(await freePort()),
  };
});
afterAll(async () => {
  await run('stop');
  await rm(dataDir, { recursive: true, force: true });
});

describe('herald-infra start', () => {
  it('fails at once when a server exits while starting, with its log, and stops what it launched', async () => {
    const started = Date.now();
    const failed = await run('start', { FERRETDB_LOG_LEVEL: 'bogus' });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('FerretDB exited during start-up');
    expect(failed.stderr).toContain('"bogus"');
    expect(failed.stderr).toContain('stopping what this start launched');
    // Not the start timeout: the exit was seen while Kafka was still coming up.
    expect(Date.now() - started).toBeLessThan(30_000);
    const status = await run('status');
    expect(status.code).toBe(3);
    expect(status.stderr + status.stdout).toMatch(/kafka:\s+stopped/);
    expect(status.stderr + status.stdout).toMatch(/ferretdb:\s+stopped/);
  });

  it('then starts both with good settings', async () => {
    const ok = await run('start');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`KAFKA_BROKERS=127.0.0.1:${env.KAFKA_PORT}`);
    expect(ok.stdout).toContain(`MONGO_URL=mongodb://127.0.0.1:${env.FERRETDB_PORT}/`);
  });
});

describe('herald-infra start --brokers 3', () => {
  let clusterDir: string;
  let clusterEnv: NodeJS.ProcessEnv;
  const runCluster = (command: string, ...args: string[]) =>
    promisify(execFile)(INFRA_SCRIPT, [command, ...args], { env: clusterEnv, timeout: 120_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
    );

  beforeAll(async () => {
    clusterDir = await mkdtemp(join(tmpdir(), 'herald-infra-cluster-'));
    const { kafkaPort, kafkaControllerPort } = await kafkaPortsFree(3);
    clusterEnv = { ...process.env, HERALD_DATA_DIR: clusterDir, KAFKA_PORT: String(kafkaPort), KAFKA_CONTROLLER_PORT: String(kafkaControllerPort), FERRETDB_PORT: String(await freePort()) };
  });
  afterAll(async () => {
    await runCluster('stop');
    await rm(clusterDir, { recursive: true, force: true });
  }, 60_000);

  it('starts three brokers of one cluster, each in its own directory; status and stop cover them all; the count stays with the data dir', async () => {
    const port = Number(clusterEnv.KAFKA_PORT);
    const started = await runCluster('start', '--brokers', '3');
    expect(started.code).toBe(0);
    expect(started.stdout).toContain(`KAFKA_BROKERS=127.0.0.1:${port},127.0.0.1:${port + 2},127.0.0.1:${port + 4}`);
    const ids = await Promise.all(['kafka', 'kafka-2', 'kafka-3'].map((dir) => readFile(join(clusterDir, dir, 'data', 'meta.properties'), 'utf8')));
    expect(new Set(ids.map((text) => /cluster\.id=(\S+)/.exec(text)?.[1])).size).toBe(1);
    expect(ids.map((text) => /node\.id=(\d)/.exec(text)?.[1])).toEqual(['1', '2', '3']);

    // status needs no flag: the count is recorded with the ports.
    const status = await runCluster('status');
    expect(status.code).toBe(0);
    for (const [n, offset] of [[1, 0], [2, 2], [3, 4]] as const) expect(status.stdout).toMatch(new RegExp(`kafka-${n}:\\s+running \\(pid \\d+\\) on 127\\.0\\.0\\.1:${port + offset}`));
    const other = await runCluster('start', '--brokers', '1');
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("this data dir's Kafka runs 3 broker(s) (asked for 1)");

    const stopped = await runCluster('stop');
    expect(stopped.code).toBe(0);
    const after = await runCluster('status');
    expect(after.code).toBe(3);
    expect(after.stdout).toMatch(/kafka-1:\s+stopped[\s\S]*kafka-2:\s+stopped[\s\S]*kafka-3:\s+stopped/);
    // Formatted for three: a single broker on this data dir is refused.
    const single = await runCluster('start', '--brokers', '1');
    expect(single.code).toBe(1);
    expect(single.stderr).toContain('formatted for 3 broker(s), asked for 1');
  }, 180_000);
});
