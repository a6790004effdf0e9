import type { Command } from 'commander';
import type { Runner } from '../context.ts';

export function keyCommands(program: Command, withContext: Runner): void {
  const keys = program.command('keys').description('issue, revoke and list API keys');

  keys
    .command('issue <project-id>')
    .description('issue a new API key for a project (shown once)')
    .option('--json', 'print {"key_id": ..., "api_key": ...} only')
    .action(async (projectId: string, options: { json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        const { keyId, apiKey } = await admin.issueKey(projectId);
        if (options.json === true) out(JSON.stringify({ key_id: keyId, api_key: apiKey }));
        else out(`key ${keyId}: ${apiKey}\nThe API key is shown only this once.`);
      }),
    );

  keys
    .command('revoke <key-id>')
    .description('revoke an API key; requests with it are refused from then on')
    .action(async (keyId: string) =>
      withContext(async ({ admin, out }) => {
        await admin.revokeKey(keyId);
        out(`revoked ${keyId}`);
      }),
    );

  keys
    .command('list <project-id>')
    .description("list a project's keys (ids and state, never the keys)")
    .option('--json', 'print JSON')
    .action(async (projectId: string, options: { json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        const list = await admin.listKeys(projectId);
        if (options.json === true) out(JSON.stringify(list));
        else for (const key of list) out(`${key._id}  created ${key.created_at.toISOString()}  ${key.revoked_at === undefined ? 'active' : `revoked ${key.revoked_at.toISOString()}`}`);
      }),
    );
}
