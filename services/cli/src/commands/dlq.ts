import type { Command } from 'commander';
import { ValidationError } from '@herald/errors';
import {
  countDeadLetters,
  errorSummary,
  matches,
  readDeadLetter,
  readDeadLetters,
  redriveDeadLetters,
  safeText,
  type DeadLetterFilter,
} from '@herald/kafka';
import type { Runner } from '../context.ts';
import { describeDeadLetter, table } from './dlq-format.ts';

interface FilterOptions {
  topic?: string;
  group?: string;
  error?: string;
  since?: string;
}

/** The filter the options name; a clear error for a `--since` that is not a time. */
export function filterFrom(options: FilterOptions): DeadLetterFilter {
  const filter: DeadLetterFilter = {};
  if (options.topic !== undefined) filter.topic = options.topic;
  if (options.group !== undefined) filter.group = options.group;
  if (options.error !== undefined) filter.error = options.error;
  if (options.since !== undefined) {
    const since = new Date(options.since);
    if (!/^\d{4}-\d{2}-\d{2}/.test(options.since) || Number.isNaN(since.getTime())) throw new ValidationError([`--since must be an ISO 8601 time such as 2025-01-31T12:00:00Z, got "${options.since}"`]);
    filter.since = since;
  }
  return filter;
}

const withFilters = (command: Command) =>
  command
    .option('--topic <topic>', 'a dead-letter topic or the source topic (e.g. herald.device-events)')
    .option('--group <group>', 'the consumer group that dead-lettered (e.g. herald.projector.devices.v1)')
    .option('--since <time>', 'dead-lettered at or after this ISO 8601 time');

export function dlqCommands(program: Command, withContext: Runner): void {
  const dlq = program.command('dlq').description('dead letters: records a consumer group could not handle (docs/operations/dead-letters.md)');

  withFilters(dlq.command('list'))
    .description('count dead letters by dead-letter topic, consumer group and error')
    .option('--error <text>', 'only errors containing this text')
    .option('--records', 'list each dead letter (its ref, for `dlq show`) instead of counts')
    .option('--json', 'print JSON')
    .action(async (options: FilterOptions & { records?: boolean; json?: boolean }) =>
      withContext(async ({ out, kafka }) => {
        const filter = filterFrom(options);
        const entries = (await readDeadLetters((await kafka()).kafka)).filter((entry) => matches(entry, filter));
        if (options.records === true) {
          const rows = entries.map((entry) => ({ ref: entry.ref, failed_at: entry.failedAt, source: `${entry.source.topic}:${entry.source.partition}:${entry.source.offset}`, group: entry.group, kind: entry.kind, redrives: entry.redriveCount, error: errorSummary(entry.error) }));
          if (options.json === true) return out(safeText(JSON.stringify(rows)));
          for (const line of table(['ref', 'failed at', 'source', 'kind', 'redrives', 'error'], rows.map((row) => [row.ref, row.failed_at, row.source, row.kind, String(row.redrives), row.error]))) out(safeText(line));
          return;
        }
        const counts = countDeadLetters(entries);
        if (options.json === true) return out(safeText(JSON.stringify(counts)));
        if (counts.length === 0) return out('no dead letters');
        for (const line of table(['topic', 'group', 'kind', 'count', 'oldest', 'newest', 'error'], counts.map((row) => [row.topic, row.group, row.kind, String(row.count), row.oldest, row.newest, row.error]))) out(safeText(line));
      }),
    );

  dlq
    .command('show <ref>')
    .description('one dead letter: where it came from, its key, headers, value and error chain (ref: <dlq topic>:<partition>:<offset>)')
    .option('--json', 'print JSON')
    .action(async (ref: string, options: { json?: boolean }) =>
      withContext(async ({ out, kafka }) => {
        const entry = await readDeadLetter((await kafka()).kafka, ref);
        const described = describeDeadLetter(entry);
        if (options.json === true) return out(safeText(JSON.stringify(described.json)));
        for (const line of described.lines) out(safeText(line));
      }),
    );

  withFilters(dlq.command('redrive'))
    .description('write matching dead letters back to their source topic for the group that failed them, each at most once')
    .option('--error <text>', 'only dead letters whose error chain contains this text')
    .option('--dry-run', 'print what would be redriven, write nothing')
    .action(async (options: FilterOptions & { dryRun?: boolean }) =>
      withContext(async ({ out, kafka }) => {
        const dryRun = options.dryRun === true;
        const selection = await redriveDeadLetters((await kafka()).kafka, filterFrom(options), { dryRun });
        const verb = dryRun ? 'would redrive' : 'redrove';
        out(`${verb} ${selection.selected.length} dead letter${selection.selected.length === 1 ? '' : 's'} (${selection.alreadyRedriven.length} matching already redriven)`);
        for (const entry of selection.selected) {
          out(safeText(`  ${entry.ref} → ${entry.source.topic}:${entry.source.partition} for ${entry.group} (redrive ${entry.redriveCount + 1}; ${errorSummary(entry.error)})`));
        }
        for (const { entry, log } of selection.alreadyRedriven) out(safeText(`  skipped ${entry.ref}: redriven at ${log.redriven_at} to ${log.to}`));
      }),
    );
}
