import { isAppError } from '@herald/errors';

export type Stop = () => Promise<void>;

/** How long a process may take to stop after SIGINT/SIGTERM before it exits anyway. */
export const STOP_DEADLINE_MS = 8_000;

/**
 * Owns a service process: runs `start`, and on SIGINT/SIGTERM runs the stop
 * it returned (draining in-flight work) before exiting. Stopping has a
 * deadline: whatever is still open after `stopDeadlineMs` (a connection that
 * never drains, a broker that does not answer), the process exits (code 1),
 * so a supervisor's Ctrl-C always ends it. Later signals wait for the stop
 * under way. A failure to start prints every problem (for configuration:
 * all of them at once) and exits 1.
 */
export async function runProcess(name: string, start: () => Promise<Stop>, options: { stopDeadlineMs?: number } = {}): Promise<void> {
  let stop: Stop;
  try {
    stop = await start();
  } catch (error) {
    const details = isAppError(error) ? error.details : [error instanceof Error ? error.message : String(error)];
    process.stderr.write(`${name} failed to start:\n${details.map((line) => `  - ${line}`).join('\n')}\n`);
    if (!isAppError(error) && error instanceof Error && error.stack !== undefined) process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const deadlineMs = options.stopDeadlineMs ?? STOP_DEADLINE_MS;
    setTimeout(() => {
      process.stderr.write(`${name} did not stop within ${deadlineMs} ms of ${signal}: exiting anyway\n`);
      process.exit(1);
    }, deadlineMs).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${name} did not stop cleanly after ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
