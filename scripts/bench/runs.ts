// Benchmark results as data: scripts/bench/runs.jsonl holds one JSON line per
// recorded run (oldest first). A benchmark's `--json` line is appended there
// when HERALD_BENCH_RECORD=1; `npm run bench:latest` prints the latest run of
// each benchmark.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RUNS_FILE = join(dirname(fileURLToPath(import.meta.url)), 'runs.jsonl');

export interface BenchRun {
  benchmark: string;
  /** The day of the run (YYYY-MM-DD), or its ISO 8601 time when recorded by the benchmark itself. */
  date: string;
  commit: string | null;
  machine: string;
  command: string;
  figures: Record<string, unknown>;
}

export interface RunContext {
  now: Date;
  commit: string | null;
  machine: string;
  argv: readonly string[];
}

/** The line a run appends to runs.jsonl. */
export function benchRun(benchmark: string, figures: Record<string, unknown>, context: RunContext): BenchRun {
  return {
    benchmark,
    date: context.now.toISOString(),
    commit: context.commit,
    machine: context.machine,
    command: [`npm run bench:${benchmark} --`, ...context.argv].join(' '),
    figures,
  };
}

/** The runs of a runs.jsonl text; a line that is not a run is an error naming it. */
export function parseRuns(text: string): BenchRun[] {
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    const run = JSON.parse(line) as Partial<BenchRun>;
    for (const field of ['benchmark', 'date', 'machine', 'command'] as const) {
      if (typeof run[field] !== 'string') throw new Error(`runs.jsonl line ${index + 1}: ${field} must be a string`);
    }
    if (typeof run.figures !== 'object' || run.figures === null) throw new Error(`runs.jsonl line ${index + 1}: figures must be an object`);
    return [run as BenchRun];
  });
}

/** The latest run of each benchmark: the last line (the file is appended to) among those of the latest date. */
export function latestRuns(runs: readonly BenchRun[]): BenchRun[] {
  const latest = new Map<string, BenchRun>();
  for (const run of runs) {
    const current = latest.get(run.benchmark);
    if (current === undefined || run.date.slice(0, 10) >= current.date.slice(0, 10)) latest.set(run.benchmark, run);
  }
  return [...latest.values()].sort((a, b) => a.benchmark.localeCompare(b.benchmark));
}

function currentCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function thisMachine(): string {
  const cores = cpus();
  return `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB`;
}

/** Prints a benchmark's JSON summary as the last line of stdout, and appends it to runs.jsonl when HERALD_BENCH_RECORD=1. */
export function emitJson(benchmark: string, figures: object): void {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  if (process.env.HERALD_BENCH_RECORD !== '1') return;
  const run = benchRun(benchmark, figures as Record<string, unknown>, { now: new Date(), commit: currentCommit(), machine: thisMachine(), argv: process.argv.slice(2) });
  appendFileSync(RUNS_FILE, `${JSON.stringify(run)}\n`);
  process.stderr.write(`recorded in ${RUNS_FILE}\n`);
}

export function readRuns(file = RUNS_FILE): BenchRun[] {
  return parseRuns(readFileSync(file, 'utf8'));
}
