import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brokerPidFile, startLocalInfra, type LocalInfraSettings } from '@herald/local-infra';

/**
 * Kills and restarts the local infra's servers for fault injection, and says
 * which pids they have now. The one place that knows the data dir's layout
 * (read from infra/bin/herald-infra): broker 1's pid file is kafka/kafka.pid,
 * broker n's of a cluster kafka-<n>/kafka.pid; every other pid file under the
 * data dir (FerretDB's, …) belongs to the store. `herald-infra start` with the same
 * HERALD_DATA_DIR and ports brings back whatever is down.
 */
export interface InfraControl {
  kafkaPids(): number[];
  /** Root processes of the store (count their process trees). */
  storePids(): number[];
  restartBroker(): Promise<string>;
  restartStore(): Promise<string>;
  /** kill -9 broker `node` (its node id, 1-based) of the cluster and wait until it is gone; not started again. */
  killBroker(node: number): Promise<string>;
  /** `herald-infra start` again: starts whatever is down (a killed broker), resolves once all answer. */
  startAgain(): Promise<void>;
}

const isKafkaPidFile = (file: string) => /^kafka(-\d+)?\/kafka\.pid$/.test(file);

function pidFiles(dir: string, depth = 3, base = ''): string[] {
  if (depth === 0) return [];
  let entries: Array<{ name: string; isDirectory(): boolean; isFile(): boolean }>;
  try {
    entries = readdirSync(join(dir, base), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(base, entry.name);
    if (entry.isDirectory()) return pidFiles(dir, depth - 1, path);
    return entry.isFile() && entry.name.endsWith('.pid') ? [path] : [];
  });
}

/** The first line of a pid file (a pid file may hold more lines after it). */
function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]?.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pids: readonly number[], timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > until) throw new Error(`pids ${pids.join(', ')} still alive ${timeoutMs} ms after SIGKILL`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

export function localInfraControl(settings: LocalInfraSettings): InfraControl {
  const pidsOf = (files: readonly string[]) => files.map((file) => readPid(join(settings.dataDir, file))).filter((pid): pid is number => pid !== undefined && alive(pid));
  const kafkaPids = () => pidsOf(pidFiles(settings.dataDir).filter(isKafkaPidFile));
  const storePids = () => pidsOf(pidFiles(settings.dataDir).filter((file) => !isKafkaPidFile(file)));
  const restart = async (what: string, pids: number[]) => {
    const started = performance.now();
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await waitGone(pids);
    await startLocalInfra(settings);
    return `${what}: killed pid ${pids.join(', ') || '(none found)'} and started again in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  };
  return {
    kafkaPids,
    storePids,
    restartBroker: () => restart('broker', kafkaPids()),
    restartStore: () => restart('store', storePids()),
    killBroker: async (node) => {
      const pid = readPid(brokerPidFile(settings.dataDir, node));
      if (pid === undefined || !alive(pid)) throw new Error(`broker ${node} is not running`);
      process.kill(pid, 'SIGKILL');
      await waitGone([pid]);
      return `broker ${node}: killed pid ${pid}`;
    },
    startAgain: async () => void (await startLocalInfra(settings)),
  };
}
