import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { retriedLines, summaryLine } from './summary.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the CI summary line', () => {
  it('counts passed, failed and skipped tests from the runner’s report', () => {
    expect(summaryLine({ numPassedTests: 564, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 })).toBe('564 passed, 0 failed');
    expect(summaryLine({ numPassedTests: 10, numFailedTests: 2, numPendingTests: 3, numTodoTests: 1 })).toBe('10 passed, 2 failed, 4 skipped');
    // A file that failed to load has no failed test in it, and is a failure all the same.
    expect(summaryLine({ numPassedTests: 5, numFailedTests: 0, testResults: [{ status: 'failed', assertionResults: [] }, { status: 'passed', assertionResults: [{ status: 'passed' }] }] })).toBe('5 passed, 1 failed');
    expect(summaryLine(undefined)).toBe('0 passed, 0 failed');
  });

  it('names every test that passed only on a retry, with its first attempt’s error', () => {
    const report = {
      numPassedTests: 2,
      numFailedTests: 0,
      testResults: [{ name: '/ci/a.e2e.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'sends', failureMessages: ['AssertionError: expected 404 to be 200\n    at x'] }, { status: 'passed', fullName: 'lists', failureMessages: [] }] }],
    };
    expect(retriedLines(report)).toEqual(['passed on a retry: /ci/a.e2e.test.ts > sends (first attempt: AssertionError: expected 404 to be 200)']);
    expect(retriedLines({ testResults: [{ status: 'failed', assertionResults: [{ status: 'failed', failureMessages: ['x'] }] }] })).toEqual([]);
    expect(summaryLine(report)).toBe('2 passed, 0 failed');
  });

  it('.ci/run’s steps: every step runs, a failed one fails the run, and the summary is the last line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-ci-'));
    try {
      const report = join(dir, 'vitest.json');
      await writeFile(report, JSON.stringify({ numPassedTests: 7, numFailedTests: 0, numPendingTests: 1, numTodoTests: 0, testResults: [] }));
      const script = `source .ci/lib.sh; CI_REPORT=${report}; step "lint" false; step "tests" true; finish`;
      const failed = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, HERALD_NODE: process.execPath } }).then(
        () => ({ code: 0, stdout: '' }),
        (error: { code: number; stdout: string }) => error,
      );
      expect(failed.code).toBe(1);
      const lines = failed.stdout.trimEnd().split('\n');
      expect(lines).toContain('== tests');
      expect(lines.at(-1)).toBe('7 passed, 0 failed, 1 skipped');
      const passed = await promisify(execFile)('bash', ['-c', `source .ci/lib.sh; CI_REPORT=${report}; step "tests" true; finish`], { cwd: ROOT, env: { ...process.env, HERALD_NODE: process.execPath } });
      expect(passed.stdout.trimEnd().split('\n').at(-1)).toBe('7 passed, 0 failed, 1 skipped');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
