import type { Command } from 'commander';
import { ValidationError } from '@herald/errors';
import { Explainer, type ExplainLimits } from '@herald/explain';
import { safeText } from '@herald/kafka';
import { ReadModelRegistry } from '@herald/mongo';
import type { Runner } from '../context.ts';
import { deviceLines, notificationLines } from './explain-format.ts';

interface ExplainOptions {
  project?: string;
  json?: boolean;
  maxRecords: string;
  timeout: string;
}

/** The operator's bounds: far above the API's (one at a time, no project limit to share), still finite. */
function limitsFrom(options: ExplainOptions): ExplainLimits {
  const maxRecords = Number(options.maxRecords);
  const timeoutMs = Number(options.timeout);
  const problems = [
    ...(Number.isInteger(maxRecords) && maxRecords > 0 ? [] : [`--max-records must be a positive integer, got "${options.maxRecords}"`]),
    ...(Number.isInteger(timeoutMs) && timeoutMs > 0 ? [] : [`--timeout must be a positive number of milliseconds, got "${options.timeout}"`]),
  ];
  if (problems.length > 0) throw new ValidationError(problems);
  return { maxRecords, timeoutMs, perProject: 1, total: 1, notifications: 100 };
}

const withBounds = (command: Command) =>
  command
    .option('--project <id>', 'only this project (needed to look a device up by token)')
    .option('--max-records <n>', 'refuse to read more log records than this', '10000000')
    .option('--timeout <ms>', 'give up reading the log after this long', '300000')
    .option('--json', 'print JSON (the API answer\'s `data`)');

export function explainCommands(program: Command, withContext: Runner): void {
  const explain = program.command('explain').description('answers from the event log: a device\'s timeline, why a device was or was not reached (docs/reference/explain.md)');

  withBounds(explain.command('device <id-or-token>'))
    .description("a device's timeline: registrations, token refreshes, metadata, deactivations with the provider's evidence, receipts, opens")
    .action(async (idOrToken: string, options: ExplainOptions) =>
      withContext(async ({ out, kafka, mongo }) => {
        const explainer = new Explainer({ kafka: (await kafka()).kafka, readModels: new ReadModelRegistry(mongo.db), limits: limitsFrom(options) });
        const answer = await explainer.device(options.project, idOrToken);
        if (options.json === true) return out(safeText(JSON.stringify(answer)));
        for (const line of deviceLines(answer)) out(safeText(line));
      }),
    );

  withBounds(explain.command('notification <id>'))
    .description('a notification from its events; with --device, why that device was or was not reached')
    .option('--device <id>', 'the device to explain')
    .action(async (id: string, options: ExplainOptions & { device?: string }) =>
      withContext(async ({ out, kafka, mongo }) => {
        const explainer = new Explainer({ kafka: (await kafka()).kafka, readModels: new ReadModelRegistry(mongo.db), limits: limitsFrom(options) });
        const answer = await explainer.notification(options.project, id, options.device);
        if (options.json === true) return out(safeText(JSON.stringify(answer)));
        for (const line of notificationLines(answer)) out(safeText(line));
      }),
    );
}
