import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeFlagsFor, retry, serviceEnvFor } from '@herald/runtime';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it printed so far, for assertions and for failure messages. */
  output(): string;
  /** Sends `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs a Herald entry point (relative to the repository root) as its own
 * process with the given environment, and resolves once a line of its output
 * contains `readyLine`.
 */
export async function startServiceProcess(entry: string, env: Record<string, string>, readyLine: string, timeoutMs = 60_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...nodeFlagsFor(entry), resolve(REPO_ROOT, entry)], {
    cwd: REPO_ROOT,
    env: serviceEnvFor(entry, { ...process.env, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // HERALD_TEST_ECHO=1 mirrors every service's output, for debugging a test run.
  if (process.env.HERALD_TEST_ECHO === '1') {
    const name = entry.split('/')[1] ?? entry;
    const echo = (chunk: Buffer) => process.stderr.write(chunk.toString().replace(/^(?=.)/gm, `[${name}] `));
    child.stdout.on('data', echo);
    child.stderr.on('data', echo);
  }
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      // Not ready in time: it must not outlive the failure (an orphan holds the test run open).
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not print "${readyLine}" within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyLine)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${String(code)} before it was ready:\n${output}`));
    });
  });
  return {
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

/**
 * Like startServiceProcess, trying again (a fresh process) when one is not
 * ready in time, for services started against infrastructure that has only
 * just come up. The ready lines are info-level logs: run services at
 * LOG_LEVEL info or lower, else the line never comes.
 */
export async function startServiceProcessRetrying(
  entry: string,
  env: Record<string, string>,
  readyLine: string,
  options: { attempts?: number; timeoutMs?: number } = {},
): Promise<ServiceProcess> {
  return retry(() => startServiceProcess(entry, env, readyLine, options.timeoutMs ?? 45_000), { attempts: options.attempts ?? 3 });
}

/**
 * Runs `start` again, up to `attempts` times, when a service it started
 * exited because a port was already in use. `start` picks its ports afresh
 * each time: freePort's pick and the service's own listen are apart, and on a
 * busy machine (another test file, a client's source port where the kernel's
 * ephemeral range is wide) something can bind the port in between.
 */
export async function retryOnPortClash<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  return retry(start, { attempts, classify: (error) => String(error).includes('EADDRINUSE') });
}

/** Starts several service processes at once; if any fails to start, stops the others before failing. */
export async function startServiceProcesses(
  specs: ReadonlyArray<{ entry: string; env: Record<string, string>; readyLine: string }>,
): Promise<ServiceProcess[]> {
  const results = await Promise.allSettled(specs.map((spec) => startServiceProcess(spec.entry, spec.env, spec.readyLine)));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure === undefined) return results.map((result) => (result as PromiseFulfilledResult<ServiceProcess>).value);
  await Promise.all(results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop()] : [])));
  throw failure.reason;
}
