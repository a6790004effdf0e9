import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's infra script: installs (cached) and runs Kafka and FerretDB on loopback. */
export const INFRA_SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../infra/bin/herald-infra');

export interface LocalInfraSettings {
  /** Where Kafka's log dirs and FerretDB's SQLite files live. */
  dataDir: string;
  /** Broker 1's ports; broker n of a cluster listens on these + 2(n-1) (`kafkaPortsFree` picks such a run). */
  kafkaPort: number;
  kafkaControllerPort: number;
  mongoPort: number;
  /** Brokers of the local KRaft cluster (static quorum of all of them); unset: HERALD_KAFKA_BROKERS_LOCAL, else one. */
  brokers?: number;
  /** Lines the script prints while it works (install progress, waiting). */
  onOutput?: (line: string) => void;
}

export interface LocalInfra {
  kafkaBrokers: string;
  mongoUrl: string;
  stop(): Promise<void>;
}

/** Loopback defaults that `npm start` and the CLI share (ARCHITECTURE.md). */
export const DEFAULT_PORTS = { kafkaPort: 9092, kafkaControllerPort: 9093, mongoPort: 27017 } as const;

/** Broker `n` (1-based)'s pid file in a data dir: the script's layout (broker 1 in kafka/, broker n in kafka-<n>/). */
export function brokerPidFile(dataDir: string, n = 1): string {
  return join(dataDir, n === 1 ? 'kafka' : `kafka-${n}`, 'kafka.pid');
}

/** Broker `n` (1-based)'s listener port: the script's derivation from KAFKA_PORT. */
export function brokerPort(settings: Pick<LocalInfraSettings, 'kafkaPort'>, n: number): number {
  return settings.kafkaPort + 2 * (n - 1);
}

function runScript(command: 'start' | 'stop' | 'status', settings: LocalInfraSettings): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(INFRA_SCRIPT, [command, ...(settings.brokers === undefined ? [] : ['--brokers', String(settings.brokers)])], {
      env: {
        ...process.env,
        HERALD_DATA_DIR: settings.dataDir,
        KAFKA_PORT: String(settings.kafkaPort),
        KAFKA_CONTROLLER_PORT: String(settings.kafkaControllerPort),
        FERRETDB_PORT: String(settings.mongoPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderrTail = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderrTail = (stderrTail + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim() !== '') settings.onOutput?.(line);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise(stdout);
      else reject(new Error(`herald-infra ${command} exited with ${String(code)}:\n${stderrTail}`));
    });
  });
}

/** Parses the script's `NAME=value` lines. */
export function parseInfraOutput(stdout: string): { kafkaBrokers: string; mongoUrl: string } {
  const values = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const match = /^([A-Z_]+)=(.+)$/.exec(line.trim());
    if (match !== null) values.set(match[1]!, match[2]!);
  }
  const kafkaBrokers = values.get('KAFKA_BROKERS');
  const mongoUrl = values.get('MONGO_URL');
  if (kafkaBrokers === undefined || mongoUrl === undefined) throw new Error(`herald-infra start printed no addresses:\n${stdout}`);
  return { kafkaBrokers, mongoUrl };
}

/** Starts (or finds already running) local Kafka (one broker or a cluster) and FerretDB; `stop` stops them all. */
export async function startLocalInfra(settings: LocalInfraSettings): Promise<LocalInfra> {
  const addresses = parseInfraOutput(await runScript('start', settings));
  return { ...addresses, stop: async () => void (await runScript('stop', settings)) };
}

