import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokerPidFile, freePort, kafkaPortsFree, startLocalInfra, type LocalInfra, type LocalInfraSettings } from '@herald/local-infra';
import { waitFor } from './wait-for.ts';

/**
 * A Kafka and a FerretDB of one test file's own (temp data dir, free ports),
 * for tests that stop and restart them: the shared infrastructure of the
 * global setup must keep running for the other test files.
 */
export interface OwnInfra extends LocalInfra {
  settings: LocalInfraSettings;
  /** Stops both and deletes the data dir. */
  close(): Promise<void>;
}

/** `brokers: 3`: a three-broker KRaft cluster (RF 3 / min ISR 2 for its internal topics) instead of one broker. */
export async function startOwnInfra(onOutput?: (line: string) => void, options: { brokers?: number } = {}): Promise<OwnInfra> {
  const dataDir = await mkdtemp(join(tmpdir(), 'herald-own-infra-'));
  const settings: LocalInfraSettings = {
    dataDir,
    ...(await kafkaPortsFree(options.brokers ?? 1)),
    mongoPort: await freePort(),
    brokers: options.brokers ?? 1,
    ...(onOutput === undefined ? {} : { onOutput }),
  };
  const infra = await startLocalInfra(settings);
  return {
    ...infra,
    settings,
    close: async () => {
      await infra.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Kills broker `n` (1-based; the only one by default) as a crash would (SIGKILL) and resolves once its process is gone. */
export function stopBroker(infra: OwnInfra, n = 1): Promise<void> {
  return killFromPidFile(brokerPidFile(infra.settings.dataDir, n), `Kafka broker ${n}`);
}

/** Kills the store (FerretDB, or whatever the data dir's ferretdb pid file names) and resolves once it is gone. */
export function stopStore(infra: OwnInfra): Promise<void> {
  return killFromPidFile(join(infra.settings.dataDir, 'ferretdb', 'ferretdb.pid'), 'the store');
}

/** `herald-infra start` on the same data dir and ports: starts whatever of the two is down, resolves once both answer. */
export async function restartInfra(infra: OwnInfra): Promise<void> {
  await startLocalInfra(infra.settings);
}

async function killFromPidFile(pidFile: string, name: string): Promise<void> {
  const pid = Number((await readFile(pidFile, 'utf8')).trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${pidFile} holds no pid`);
  process.kill(pid, 'SIGKILL');
  await waitFor(`${name} (pid ${pid}) to exit`, () => !isAlive(pid), 20_000);
}

/** Alive and not a zombie (a killed daemon may wait for a parent that never reaps it). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return readProcState(pid) !== 'Z';
}

function readProcState(pid: number): string | undefined {
  try {
    // Synchronous on purpose: a tiny procfs read inside a poll.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}
