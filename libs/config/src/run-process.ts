import { isAppError } from '@herald/errors';

export type Stop = () => Promise<void>;

/**
 * Owns a service process: runs `start`, and on SIGINT/SIGTERM runs the stop
 * it returned (draining in-flight work) before exiting. A failure to start
 * prints every problem (for configuration: all of them at once) and exits 1.
 */
export async function runProcess(name: string, start: () => Promise<Stop>): Promise<void> {
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
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${name} did not stop cleanly after ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}
