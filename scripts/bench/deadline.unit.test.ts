import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const DEADLINE = join(dirname(fileURLToPath(import.meta.url)), 'deadline.ts');
const dir = mkdtempSync(join(tmpdir(), 'herald-deadline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a script in its own Node process (uncaught errors end processes) and gives back its exit code and output. */
function runScript(source: string): Promise<{ code: number | null; stdout: string }> {
  const file = join(dir, `run-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, source);
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { timeout: 20_000 }, (error, stdout) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout }));
  });
}

describe('a bench run ended by an uncaught error', () => {
  it('finishes (figures, services and infra stopped) even when the fault throws again while it stops', async () => {
    const { code, stdout } = await runScript(`
      import { endRunOnTimeoutOrSignal } from ${JSON.stringify(DEADLINE)};
      const run = { status: 'running' };
      endRunOnTimeoutOrSignal({
        run, timeoutS: 60, phase: () => 'testing', finished: () => false, say: (line) => console.log('say:', line),
        // Stopping takes a while, as stopping services and Kafka does.
        finish: async () => { await new Promise((done) => setTimeout(done, 300)); console.log('finished:', run.status, run.error); },
      });
      setTimeout(() => { throw new Error('first'); }, 10);
      setTimeout(() => { throw new Error('second'); }, 100);
      setTimeout(() => console.log('still running'), 10_000);
    `);
    expect(stdout).toContain('say: uncaught: first\n');
    expect(stdout).toContain('say: uncaught: second (again, while stopping)');
    expect(stdout).toContain('finished: error uncaught: first');
    expect(stdout).not.toContain('still running');
    expect(code).toBe(1);
  });
});
