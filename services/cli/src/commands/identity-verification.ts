import { Argument, type Command } from 'commander';
import { NotFoundError, ValidationError } from '@herald/errors';
import type { AdminStore } from '@herald/admin';
import type { Runner } from '../context.ts';

interface Options {
  rotate?: boolean;
  json?: boolean;
}

/** What the command prints: a JSON object with --json, else lines for a person. The secret appears only when just issued. */
async function apply(admin: AdminStore, projectId: string, state: 'on' | 'off' | undefined, options: Options): Promise<{ json: object; lines: string[] }> {
  if (state === 'off') {
    const { was_enabled: wasEnabled } = await admin.disableIdentityVerification(projectId);
    return {
      json: { project_id: projectId, identity_verification: false },
      lines: [`identity verification is off for project ${projectId}${wasEnabled ? '; its device-auth secret is forgotten' : ' (it was off)'}`],
    };
  }
  if (state === 'on') {
    const { secret, enabled_at: enabledAt } = await admin.enableIdentityVerification(projectId, { rotate: options.rotate === true });
    const json = { project_id: projectId, identity_verification: true, enabled_at: enabledAt, ...(secret === undefined ? {} : { secret }) };
    if (secret === undefined) {
      return { json, lines: [`identity verification is already on for project ${projectId} (since ${enabledAt.toISOString()}); the secret is unchanged (--rotate issues a new one)`] };
    }
    return {
      json,
      lines: [
        `identity verification is on for project ${projectId}`,
        `  device-auth secret: ${secret}`,
        'The secret is shown only this once. Keep it on your servers, never in an app: they give each signed-in device',
        'identifier_hash = hex HMAC-SHA256(key: the secret, message: "identifier:" + identifier) for PATCH /api/v1/metadata, and',
        'external_id_hash = hex HMAC-SHA256(key: the secret, message: "external_id:" + external_id) to register with external_id.',
      ],
    };
  }
  const setting = await admin.identityVerification(projectId);
  if (setting === null) throw new NotFoundError(`project ${projectId} does not exist`);
  return {
    json: { project_id: projectId, identity_verification: setting.enabled },
    lines: [`identity verification is ${setting.enabled ? 'on' : 'off'} for project ${projectId}`],
  };
}

export function identityVerificationCommand(projects: Command, withContext: Runner): void {
  projects
    .command('identity-verification')
    .description(
      'require PATCH /api/v1/metadata to carry identifier_hash (HMAC-SHA256 of "identifier:" + identifier under a per-project secret), ' +
        'and let registrations prove external_id with external_id_hash (of "external_id:" + external_id); ' +
        '"on" prints the secret once, "off" forgets it, no state prints the current one',
    )
    .argument('<project-id>', 'the project')
    .addArgument(new Argument('[state]', 'turn it on or off; left out: print whether it is on').choices(['on', 'off']))
    .option('--rotate', 'with "on": issue a new secret even if it is already on (the old one stops working at once)')
    .option('--json', 'print JSON ({"project_id", "identity_verification", "secret" when one is issued})')
    .action(async (projectId: string, state: 'on' | 'off' | undefined, options: Options) => {
      if (options.rotate === true && state !== 'on') throw new ValidationError(['--rotate goes only with "on"']);
      await withContext(async ({ admin, out }) => {
        const { json, lines } = await apply(admin, projectId, state, options);
        if (options.json === true) out(JSON.stringify(json));
        else for (const line of lines) out(line);
      });
    });
}
