import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
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
    HERALD_STORE: 'sqlite',
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
