import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { withLogAdmin, type HeraldKafka } from '@herald/kafka';
// Deep import on purpose: @herald/testing's index also loads vitest (test-env.ts), which needs a vitest run.
import { REPO_ROOT } from '../../libs/testing/src/service-process.ts';
import { nodeFlagsFor, serviceEnvFor } from '@herald/runtime';

/** A service child process. Output is kept as a bounded tail (services run at LOG_LEVEL=warn, so it is small). */
export interface Child {
  name: string;
  child: ChildProcess;
  pid: number | undefined;
  tail(): string;
  /** SIGTERM (the services drain), SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

const TAIL_CHARS = 8_000;

/** A directory to write each service child's whole output to (`<name>.log`): what the services said during a faulted run. */
const LOG_DIR = process.env.HERALD_BENCH_LOG_DIR;
/** Extra Node flags for every service child, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (where the services spend their CPU; Node refuses them in NODE_OPTIONS). */
const EXTRA_FLAGS = (process.env.HERALD_BENCH_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');

export function spawnService(name: string, entry: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, [...nodeFlagsFor(entry), ...EXTRA_FLAGS, resolve(REPO_ROOT, entry)], { cwd: REPO_ROOT, env: serviceEnvFor(entry, { ...process.env, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const onData = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  if (LOG_DIR !== undefined) {
    mkdirSync(LOG_DIR, { recursive: true });
    const file = createWriteStream(resolve(LOG_DIR, `${name}.log`), { flags: 'a' });
    child.stdout.pipe(file);
    child.stderr.pipe(file);
  }
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    name,
    child,
    pid: child.pid,
    tail: () => tail,
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Waits until `probe` answers true (polling), failing early when the child
 * exits. Readiness is probed rather than read from log lines because the
 * services run at LOG_LEVEL=warn, which hides their info-level "ready" lines.
 */
export async function waitReady(child: Child, what: string, probe: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.child.exitCode !== null || child.child.signalCode !== null) {
      throw new Error(`${child.name} exited (${String(child.child.exitCode ?? child.child.signalCode)}) before ${what}:\n${child.tail()}`);
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${child.name}: no ${what} within ${timeoutMs} ms:\n${child.tail()}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Every group (logical names) is Stable with at least one member: its consumers have joined. */
export function groupsJoined(kafka: HeraldKafka, logicalGroups: readonly string[]): () => Promise<boolean> {
  return () => withLogAdmin(kafka, (admin) => admin.groupsJoined(logicalGroups.map((group) => kafka.group(group))));
}

export function httpOk(url: string): () => Promise<boolean> {
  return async () => (await fetch(url)).ok;
}
