import type { Command } from 'commander';
import type { Runner } from '../context.ts';
import { identityVerificationCommand } from './identity-verification.ts';

export function projectCommands(program: Command, withContext: Runner): void {
  const projects = program.command('projects').description('create and list projects; identity verification');

  projects
    .command('create <name>')
    .description('create a project and print its id and a new API key (shown once)')
    .option('--json', 'print {"id": ..., "api_key": ...} only')
    .action(async (name: string, options: { json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        const { project, apiKey } = await admin.createProject(name);
        if (options.json === true) out(JSON.stringify({ id: project._id, api_key: apiKey }));
        else {
          out(`project ${project.name}`);
          out(`  id:      ${project._id}`);
          out(`  api key: ${apiKey}`);
          out('The API key is shown only this once; Herald stores only its hash.');
        }
      }),
    );

  projects
    .command('list')
    .description('list projects')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        const list = await admin.listProjects();
        if (options.json === true) out(JSON.stringify(list.map((p) => ({ id: p._id, name: p.name, created_at: p.created_at }))));
        else for (const project of list) out(`${project._id}  ${project.name}`);
      }),
    );

  identityVerificationCommand(projects, withContext);
}
