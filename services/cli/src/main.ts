import { Command } from 'commander';
import { isAppError } from '@herald/errors';
import { withContext } from './context.ts';
import { resolveLocalMode } from './local-mode.ts';
import { projectCommands } from './commands/projects.ts';
import { keyCommands } from './commands/keys.ts';
import { readModelCommands } from './commands/read-models.ts';
import { providerCommands } from './commands/providers.ts';
import { dlqCommands } from './commands/dlq.ts';
import { explainCommands } from './commands/explain.ts';
import { notificationCommands } from './commands/notifications.ts';

const { env, local } = await resolveLocalMode(process.env);
const program = new Command('herald').description('Herald admin CLI').showHelpAfterError();
const run = (action: Parameters<typeof withContext>[1]) => withContext(env, action);
projectCommands(program, run, { env, local });
keyCommands(program, run);
readModelCommands(program, run);
providerCommands(program, run, env);
dlqCommands(program, run);
explainCommands(program, run);
notificationCommands(program, run);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const details = isAppError(error) ? error.details : [error instanceof Error ? error.message : String(error)];
  process.stderr.write(`herald: ${details.join('\n  ')}\n`);
  process.exitCode = 1;
}
