/** The run's overall time bound: phases check it and stop with what they reached. */
export class DeadlineExceeded extends Error {
  readonly phase: string;
  readonly reached: string;

  constructor(phase: string, reached: string, limitS: number) {
    super(`timed out after ${limitS} s while ${phase} (${reached})`);
    this.phase = phase;
    this.reached = reached;
  }
}

export class Deadline {
  readonly #at: number;
  readonly #limitS: number;

  constructor(limitS: number) {
    this.#limitS = limitS;
    this.#at = Date.now() + limitS * 1000;
  }

  remainingMs(): number {
    return Math.max(0, this.#at - Date.now());
  }

  check(phase: string, reached: string): void {
    if (Date.now() >= this.#at) throw new DeadlineExceeded(phase, reached, this.#limitS);
  }
}

/** What a bench run records when it ends early. */
export interface EndedRun {
  status: string;
  error?: string | undefined;
}

/**
 * Ends the run however it hangs or is stopped: a watchdog past the time
 * bound (a phase stuck where no deadline check runs, e.g. a connection)
 * and SIGINT/SIGTERM both record why on `run`, then `finish` (which stops
 * everything the run started) and exit (1 for a timeout, 130 for a signal).
 */
export function endRunOnTimeoutOrSignal(options: { run: EndedRun; timeoutS: number; phase: () => string; finished: () => boolean; finish: () => Promise<void>; say: (line: string) => void }): void {
  const { run } = options;
  const watchdog = setTimeout(() => {
    if (options.finished()) return;
    run.status = 'timeout';
    run.error = `timed out after ${options.timeoutS} s while ${options.phase()} (watchdog)`;
    options.say(run.error);
    void options.finish().then(() => process.exit(1));
  }, options.timeoutS * 1000 + 15_000);
  watchdog.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      run.status = 'interrupted';
      run.error = `${signal} received`;
      void options.finish().then(() => process.exit(130));
    });
  }
  // An error nobody awaited (a log file's stream failing) ends the run the same way: crashing would leave its Kafka and store running.
  // Listened to for good, not once: the same fault often throws again (one per stream) while `finish` is stopping everything.
  let ending = false;
  process.on('uncaughtException', (error) => {
    const message = `uncaught: ${error instanceof Error ? error.message : String(error)}`;
    if (ending) {
      options.say(`${message} (again, while stopping)`);
      return;
    }
    ending = true;
    run.status = 'error';
    run.error = message;
    options.say(message);
    void options.finish().then(
      () => process.exit(1),
      () => process.exit(1),
    );
  });
}
