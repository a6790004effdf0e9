// `npm run bench:latest`: the latest recorded run of each benchmark (runs.jsonl).
import { latestRuns, readRuns, type BenchRun } from './runs.ts';

function format(run: BenchRun): string {
  const figures = Object.entries(run.figures).map(([name, value]) => `    ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [`${run.benchmark}  ${run.date}  ${run.commit ?? '(no commit)'}`, `  machine: ${run.machine}`, `  command: ${run.command}`, ...figures].join('\n');
}

process.stdout.write(`${latestRuns(readRuns()).map(format).join('\n\n')}\n`);
