// The last line of a CI run: `N passed, N failed` (`, N skipped` when any),
// computed from the test runner's own results (vitest's JSON reporter), so a
// log reader finds one plain line whatever the runner prints.
//
//   node scripts/ci/summary.ts <vitest JSON report>   # a missing report: nothing ran
import { readFile } from 'node:fs/promises';

interface VitestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: Array<{ name?: string; status?: string; assertionResults?: Array<{ status?: string; fullName?: string; failureMessages?: string[] }> }>;
}

/**
 * The summary of a report (pure). A test file that failed without a failed
 * test in it (it did not load, a hook failed) counts as one failure, so the
 * line never says 0 failed for a run that failed.
 */
export function summaryLine(report: VitestReport | undefined): string {
  const passed = report?.numPassedTests ?? 0;
  const brokenFiles = (report?.testResults ?? []).filter((file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')).length;
  const failed = (report?.numFailedTests ?? 0) + brokenFiles;
  const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

/**
 * The tests that passed only on a retry (pure): vitest reports them passed
 * with the failed attempts' messages kept. CI retries integration tests once
 * (HERALD_TEST_RETRIES, vitest.config.ts); these lines keep every such pass
 * visible instead of hiding it in the count.
 */
export function retriedLines(report: VitestReport | undefined): string[] {
  return (report?.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === 'passed' && (test.failureMessages ?? []).length > 0)
      .map((test) => `passed on a retry: ${file.name ?? '?'} > ${test.fullName ?? '?'} (first attempt: ${firstLine(test.failureMessages![0]!)})`),
  );
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.slice(0, 200);
}

if (import.meta.main) {
  const file = process.argv[2];
  const report = file === undefined ? undefined : await readFile(file, 'utf8').then((text) => JSON.parse(text) as VitestReport, () => undefined);
  for (const line of retriedLines(report)) process.stdout.write(`${line}\n`);
  process.stdout.write(`${summaryLine(report)}\n`);
}
