import { join } from 'node:path';
import type { Command } from 'commander';
import { NotFoundError, ValidationError } from '@herald/errors';
import { capRule, CredentialStore, parseFrequencyCap, parseQuietHours, parseSecretKey, WebPushKeyStore, type FrequencyCap, type QuietHoursSetting } from '@herald/admin';
import { LOCAL_PROVIDER_IDENTITY_FILE, localProviderIdentity, storeIdentity } from '@herald/fake-providers';
import type { Store } from '@herald/mongo';
import type { Runner } from '../context.ts';
import type { LocalMode } from '../local-mode.ts';
import { identityVerificationCommand } from './identity-verification.ts';
import { deviceSettingsCommands } from './device-settings.ts';
import { parseRate } from './notifications.ts';
import { isTimeZone } from '@herald/runtime';

interface ProjectSettings {
  env: Readonly<Record<string, string | undefined>>;
  local?: LocalMode | undefined;
}

/** Local mode: the VAPID subject of local projects (a push service may write to it; the local fake never does). */
const LOCAL_VAPID_SUBJECT = 'mailto:push@herald.localhost';

/**
 * Local mode: the new project gets the credentials `npm start`'s fake APNs and FCM accept (kept in the state dir)
 * and a Web Push key pair of its own (any push service, the local fake included, accepts a project's VAPID key).
 */
async function giveLocalFakeProviders(db: Store, settings: ProjectSettings, projectId: string): Promise<boolean> {
  if (settings.local === undefined || settings.env.HERALD_SECRET_KEY === undefined) return false;
  const identity = await localProviderIdentity(join(settings.local.stateDir, LOCAL_PROVIDER_IDENTITY_FILE), { create: true });
  const secretKey = parseSecretKey(settings.env.HERALD_SECRET_KEY);
  await storeIdentity(new CredentialStore(db, secretKey), projectId, identity!);
  await new WebPushKeyStore(db, secretKey).generate(projectId, LOCAL_VAPID_SUBJECT);
  return true;
}

export function projectCommands(program: Command, withContext: Runner, settings: ProjectSettings): void {
  const projects = program.command('projects').description('create and list projects; identity verification, device topics, device quota, default pace, budget');

  projects
    .command('create <name>')
    .description('create a project and print its id and a new API key (shown once)')
    .option('--json', 'print {"id": ..., "api_key": ...} only')
    .option('--no-fake-providers', "local mode: do not give the project the local fake APNs/FCM credentials")
    .action(async (name: string, options: { json?: boolean; fakeProviders: boolean }) =>
      withContext(async ({ admin, out, mongo }) => {
        const { project, apiKey } = await admin.createProject(name);
        const faked = options.fakeProviders && (await giveLocalFakeProviders(mongo.db, settings, project._id));
        if (options.json === true) out(JSON.stringify({ id: project._id, api_key: apiKey }));
        else {
          out(`project ${project.name}`);
          out(`  id:      ${project._id}`);
          out(`  api key: ${apiKey}`);
          out('The API key is shown only this once; Herald stores only its hash.');
          if (faked) out('Local mode: it sends through the local fake APNs and FCM (`npm start`) and has Web Push keys; --no-fake-providers skips this.');
          else out('It has no provider credentials yet: pushes are reported failed (NoApnsCredentials / NoFcmCredentials) until `herald providers apns|fcm` sets them.');
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

  projects
    .command('timezone <project-id> <zone>')
    .description("the IANA time zone local-time sends (send_at_local) use for the project's devices that registered none (default UTC)")
    .action(async (projectId: string, zone: string) =>
      withContext(async ({ admin, out }) => {
        if (!isTimeZone(zone)) throw new ValidationError([`zone ${zone} is not an IANA time zone name (e.g. Europe/Paris)`]);
        if (!(await admin.setDefaultTimezone(projectId, zone))) throw new NotFoundError(`project ${projectId} does not exist`);
        out(`project ${projectId}: devices without a time zone get local-time sends at ${zone} time`);
      }),
    );

  projects
    .command('pace <project-id> <per-minute>')
    .description("the default rate_per_minute of the project's sends that set none (`off`: unpaced); a send that fits one fan-out step (1,000 devices per partition) is never slowed")
    .action(async (projectId: string, perMinute: string) =>
      withContext(async ({ admin, out }) => {
        const rate = perMinute === 'off' ? undefined : parseRate(perMinute);
        if (!(await admin.setDefaultRate(projectId, rate))) throw new NotFoundError(`project ${projectId} does not exist`);
        out(rate === undefined ? `project ${projectId}: sends unpaced unless they set rate_per_minute` : `project ${projectId}: sends paced at ${rate} pushes per minute unless they set rate_per_minute`);
      }),
    );

  projects
    .command('budget <project-id> <per-second>')
    .description(
      "pushes per second all the project's sends share across every delivery instance (`off`: unlimited, the default): campaign sends wait for it, transactional sends draw from it first and never wait; applies to sends in flight within 10 s",
    )
    .action(async (projectId: string, perSecond: string) =>
      withContext(async ({ admin, out }) => {
        const budget = perSecond === 'off' ? undefined : parseBudget(perSecond);
        if (!(await admin.setBudget(projectId, budget))) throw new NotFoundError(`project ${projectId} does not exist`);
        out(budget === undefined ? `project ${projectId}: no budget (sends as fast as Herald goes, unless paced)` : `project ${projectId}: budget ${budget} pushes per second, transactional sends first`);
      }),
    );

  projects
    .command('caps <project-id> <max-per-window>')
    .description(
      'frequency cap of campaign sends: "3/24h" (at most 3 pushes per device, or per user with --per user, in any 24 h; windows as 90s, 15m, 24h, 7d) or `off`; ' +
        'transactional sends bypass it. --on-cap drop reports the device `capped`, defer sends it when the window allows (bounded by max_duration)',
    )
    .option('--per <device|user>', 'count per device, or per user (external_id) across its devices', 'device')
    .option('--on-cap <drop|defer>', 'what a capped push becomes', 'drop')
    .option('--json', 'print {"project_id", "frequency_cap"} (null: none)')
    .action(async (projectId: string, spec: string, options: { per: string; onCap: string; json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        let cap: FrequencyCap | undefined;
        if (spec !== 'off') {
          const [max, window, ...rest] = spec.split('/');
          const parsed = rest.length > 0 || window === undefined ? { errors: [`caps: ${spec} must be <max>/<window>, e.g. 3/24h`] } : parseFrequencyCap({ max: max!, window, per: options.per, on_cap: options.onCap });
          if ('errors' in parsed) throw new ValidationError(parsed.errors);
          cap = parsed.cap;
        }
        if (!(await admin.setFrequencyCap(projectId, cap))) throw new NotFoundError(`project ${projectId} does not exist`);
        if (options.json === true) return out(JSON.stringify({ project_id: projectId, frequency_cap: cap ?? null }));
        out(cap === undefined ? `project ${projectId}: no frequency cap` : `project ${projectId}: campaign sends capped at ${capRule(cap)} (on_cap ${cap.on_cap}); new sends take it within 10 s`);
      }),
    );

  projects
    .command('quiet-hours <project-id> <start-end>')
    .description(
      "quiet hours of campaign sends in each device's own time zone, \"22:00-08:00\" (start after end spans midnight), or `off`: a push due in them is deferred to their end; " +
        'devices without a zone use the project zone (herald projects timezone, else UTC); transactional sends bypass them',
    )
    .option('--json', 'print {"project_id", "quiet_hours"} (null: none)')
    .action(async (projectId: string, spec: string, options: { json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        let quiet: QuietHoursSetting | undefined;
        if (spec !== 'off') {
          const parsed = parseQuietHours(spec);
          if ('errors' in parsed) throw new ValidationError(parsed.errors);
          quiet = parsed.quiet;
        }
        if (!(await admin.setQuietHours(projectId, quiet))) throw new NotFoundError(`project ${projectId} does not exist`);
        if (options.json === true) return out(JSON.stringify({ project_id: projectId, quiet_hours: quiet ?? null }));
        out(quiet === undefined ? `project ${projectId}: no quiet hours` : `project ${projectId}: campaign sends wait out ${quiet.start}-${quiet.end} in each device's zone; new sends take it within 10 s`);
      }),
    );

  identityVerificationCommand(projects, withContext);
  deviceSettingsCommands(projects, withContext);
}

/** A budget in pushes per second: a whole number from 1 to 10,000,000. */
export function parseBudget(text: string): number {
  const budget = Number(text);
  if (!Number.isInteger(budget) || budget < 1 || budget > 10_000_000) throw new ValidationError([`budget ${text} must be a whole number of pushes per second from 1 to 10000000, or off`]);
  return budget;
}
