import { describe, expect, it } from 'vitest';
import { benchRun, latestRuns, parseRuns, readRuns, type BenchRun } from './runs.ts';

const run = (benchmark: string, date: string, commit: string): BenchRun => ({ benchmark, date, commit, machine: 'm', command: 'c', figures: {} });

describe('benchmark runs as data', () => {
  it('makes a run line from a summary and where it ran', () => {
    expect(benchRun('idle', { verdict: 'passed' }, { now: new Date('2026-12-01T10:00:00Z'), commit: 'abc1234', machine: '2 cores', argv: ['--pending', '1000', '--json'] })).toEqual({
      benchmark: 'idle',
      date: '2026-12-01T10:00:00.000Z',
      commit: 'abc1234',
      machine: '2 cores',
      command: 'npm run bench:idle -- --pending 1000 --json',
      figures: { verdict: 'passed' },
    });
  });

  it('picks the latest run of each benchmark: the latest day, and on that day the last line', () => {
    const runs = [run('campaign', '2026-11-28', 'a'), run('reads', '2026-11-24', 'b'), run('campaign', '2026-11-29', 'c'), run('campaign', '2026-11-29T08:00:00.000Z', 'd'), run('campaign', '2026-11-27', 'e')];
    expect(latestRuns(runs).map((latest) => `${latest.benchmark} ${latest.commit}`)).toEqual(['campaign d', 'reads b']);
  });

  it('refuses a line that is not a run, naming its line', () => {
    expect(() => parseRuns(`${JSON.stringify(run('idle', '2026-11-29', 'a'))}\n{"benchmark":"idle"}\n`)).toThrow('runs.jsonl line 2: date must be a string');
  });

  it('reads every line of scripts/bench/runs.jsonl as a run', () => {
    const runs = readRuns();
    expect(runs.length).toBeGreaterThan(100);
    expect(new Set(latestRuns(runs).map((latest) => latest.benchmark))).toEqual(new Set(['campaign', 'transactional', 'reads', 'record-codec']));
  });
});
