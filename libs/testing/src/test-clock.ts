import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A clock the services of a test read through HERALD_CLOCK_FILE (an offset in
 * ms from the real time, re-read as it changes): pass `env` to the processes
 * whose clock the test moves. Only those processes see it: the API stamps
 * `created_at` with its own clock unless `env` is given to it too.
 */
export interface TestClock {
  env: { HERALD_CLOCK_FILE: string };
  /** Sets the offset from the real time. */
  offsetBy(ms: number): Promise<void>;
  /** Moves the clock so that "now" reads `instant` (ms since the epoch). */
  moveTo(instant: number): Promise<void>;
  remove(): Promise<void>;
}

export async function createTestClock(): Promise<TestClock> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-clock-'));
  const file = join(dir, 'offset');
  await writeFile(file, '0');
  return {
    env: { HERALD_CLOCK_FILE: file },
    offsetBy: (ms) => writeFile(file, String(ms)),
    moveTo: (instant) => writeFile(file, String(instant - Date.now())),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
