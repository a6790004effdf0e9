import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startLocalInfra, type LocalInfraSettings } from '@herald/local-infra';

/**
 * A Kafka + store of one test file's own, on free ports in a temp dir, so a
 * test may kill and restart them without disturbing the shared test infra
 * other files use at the same time.
 */
export interface PrivateInfra {
  kafkaBrokers: string;
  mongoUrl: string;
  /** kill -9 the broker, then start it again (same data dir, ports): its logs and offsets survive. */
  restartBroker(downMs?: number): Promise<void>;
  /** kill -9 the MongoDB-wire server, then start it again with its data. */
  restartStore(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function killFromPidFile(file: string): Promise<void> {
  const pid = Number((await readFile(file, 'utf8')).trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no pid in ${file}`);
  process.kill(pid, 'SIGKILL');
  // Wait until it is gone, so `start` sees it down and starts a new one.
  for (let i = 0; i < 200; i += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`process ${pid} from ${file} did not exit after SIGKILL`);
}

export async function startPrivateInfra(): Promise<PrivateInfra> {
  const dataDir = await mkdtemp(join(tmpdir(), 'herald-faults-'));
  const settings: LocalInfraSettings = {
    dataDir,
    kafkaPort: await freePort(),
    kafkaControllerPort: await freePort(),
    mongoPort: await freePort(),
  };
  const infra = await startLocalInfra(settings);
  // `herald-infra start` starts whatever is down and leaves the rest running.
  const restart = async (pidFile: string, downMs: number) => {
    await killFromPidFile(join(dataDir, pidFile));
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await startLocalInfra(settings);
  };
  return {
    kafkaBrokers: infra.kafkaBrokers,
    mongoUrl: infra.mongoUrl,
    restartBroker: (downMs = 2_000) => restart('kafka/kafka.pid', downMs),
    restartStore: (downMs = 2_000) => restart('ferretdb/ferretdb.pid', downMs),
    stop: async () => {
      await infra.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
