import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '@herald/config';
import { ConfigError, ValidationError } from '@herald/errors';
import {
  CredentialStore,
  formatCredentialsDescription,
  parseSecretKey,
  validateApnsCredential,
  validateFcmServiceAccount,
  validateHmsCredential,
  type HmsLabels,
  type ApnsLabels,
  WebPushKeyStore,
  currentPublicKey,
  type WebPushSummary,
} from '@herald/admin';
import type { Runner } from '../context.ts';
import { CliConfig } from '../config.ts';

/** Problems with an APNs credential name the flag that supplied it. */
const APNS_FLAGS: ApnsLabels = { keyPem: '--key-file', keyId: '--key-id', teamId: '--team-id', bundleId: '--bundle-id', sandbox: '--sandbox' };
const HMS_FLAGS: HmsLabels = { appId: '--app-id', clientId: '--client-id', clientSecret: '--client-secret' };
/** An AuthKey .p8 is ~250 bytes and a service-account file ~2.5 KiB; anything far larger is the wrong file. */
const MAX_INPUT_BYTES = 64 * 1024;

/** The credential-encryption key; the command is refused, before anything is read or stored, when it is unset or malformed. */
function secretKey(env: Readonly<Record<string, string | undefined>>, command: string): Buffer {
  const value = loadConfig(CliConfig, env).HERALD_SECRET_KEY;
  if (value === undefined) {
    throw new ConfigError([
      `HERALD_SECRET_KEY is not set: \`herald ${command}\` needs the key that encrypts provider credentials (the same value the delivery service runs with; \`openssl rand -base64 32\` makes a new one)`,
    ]);
  }
  return parseSecretKey(value);
}

/** A small text file given on the command line; problems name the flag and the path (never the contents). */
async function readInputFile(path: string, flag: string): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ValidationError([`${flag} ${path} is not a file`]);
    if (info.size > MAX_INPUT_BYTES) throw new ValidationError([`${flag} ${path} is larger than ${MAX_INPUT_BYTES / 1024} KiB; it is not a key file`]);
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = (error as { code?: unknown }).code;
    const reason = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : `cannot be read (${String(code ?? error)})`;
    throw new ValidationError([`${flag} ${path} ${reason}`], { cause: error });
  }
}

function parseJsonFile(text: string, path: string, flag: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text, which may be a private key: not shown.
    throw new ValidationError([`${flag} ${path} is not valid JSON; expected a Google service-account key file`]);
  }
}

export function providerCommands(program: Command, withContext: Runner, env: Readonly<Record<string, string | undefined>>): void {
  const providers = program.command('providers').description("set and show a project's APNs, FCM, HMS and Web Push credentials (stored encrypted with HERALD_SECRET_KEY)");

  providers
    .command('apns <project-id>')
    .description("set a project's APNs token-auth key (replaces the previous one)")
    .requiredOption('--key-file <path>', 'the AuthKey_<key id>.p8 file from Apple (EC P-256 private key, PEM)')
    .requiredOption('--key-id <id>', "the key's Key ID: 10 upper-case letters or digits")
    .requiredOption('--team-id <id>', 'your Apple Team ID: 10 upper-case letters or digits')
    .requiredOption('--bundle-id <topic>', "the app's bundle id, sent as apns-topic (e.g. com.example.app)")
    .option('--sandbox', 'push through the APNs sandbox (development builds)')
    .action(async (projectId: string, options: { keyFile: string; keyId: string; teamId: string; bundleId: string; sandbox?: boolean }) => {
      const key = secretKey(env, 'providers apns');
      const keyPem = await readInputFile(options.keyFile, '--key-file');
      const credential = validateApnsCredential(
        { keyPem, keyId: options.keyId, teamId: options.teamId, bundleId: options.bundleId, sandbox: options.sandbox === true },
        APNS_FLAGS,
      );
      await withContext(async ({ mongo, out }) => {
        const set = await new CredentialStore(mongo.db, key).setApns(projectId, credential);
        out(`APNs credentials set for project ${projectId}: key ${set.keyId}, team ${set.teamId}, topic ${set.bundleId}, ${set.sandbox ? 'sandbox' : 'production'}`);
      });
    });

  providers
    .command('fcm <project-id>')
    .description("set a project's FCM service account (replaces the previous one)")
    .requiredOption('--service-account <file.json>', 'the Google service-account key file (JSON) of the Firebase project')
    .action(async (projectId: string, options: { serviceAccount: string }) => {
      const key = secretKey(env, 'providers fcm');
      const text = await readInputFile(options.serviceAccount, '--service-account');
      const credential = validateFcmServiceAccount(parseJsonFile(text, options.serviceAccount, '--service-account'), '--service-account');
      await withContext(async ({ mongo, out }) => {
        const set = await new CredentialStore(mongo.db, key).setFcm(projectId, credential);
        out(`FCM credentials set for project ${projectId}: Firebase project ${set.project_id}, ${set.client_email}`);
      });
    });

  providers
    .command('hms <project-id>')
    .description("set a project's Huawei Push Kit credential (replaces the previous one)")
    .requiredOption('--app-id <id>', 'the App ID from AppGallery Connect (Project settings → App information)')
    .requiredOption('--client-id <id>', 'the OAuth 2.0 Client ID from AppGallery Connect (the same page)')
    .option('--client-secret <secret>', 'the Client secret (visible to other local users in the process list: prefer --client-secret-file)')
    .option('--client-secret-file <path>', 'a file holding the Client secret (surrounding whitespace ignored)')
    .action(async (projectId: string, options: { appId: string; clientId: string; clientSecret?: string; clientSecretFile?: string }) => {
      if ((options.clientSecret === undefined) === (options.clientSecretFile === undefined)) throw new ValidationError(['give exactly one of --client-secret or --client-secret-file']);
      const key = secretKey(env, 'providers hms');
      const clientSecret = options.clientSecretFile === undefined ? options.clientSecret : (await readInputFile(options.clientSecretFile, '--client-secret-file')).trim();
      const credential = validateHmsCredential({ appId: options.appId, clientId: options.clientId, clientSecret }, HMS_FLAGS);
      await withContext(async ({ mongo, out }) => {
        const set = await new CredentialStore(mongo.db, key).setHms(projectId, credential);
        out(`HMS credentials set for project ${projectId}: app ${set.app_id}, client ${set.client_id}`);
      });
    });

  providers
    .command('show <project-id>')
    .description("show which provider credentials a project has (identifiers only, never keys) and check they decrypt")
    .option('--json', 'print {"project_id", "apns", "fcm", "hms"} (null when not configured)')
    .action(async (projectId: string, options: { json?: boolean }) => {
      const key = secretKey(env, 'providers show');
      await withContext(async ({ mongo, out }) => {
        const store = new CredentialStore(mongo.db, key);
        const description = await store.describe(projectId);
        if (options.json === true) out(JSON.stringify({ project_id: projectId, apns: description.apns ?? null, fcm: description.fcm ?? null, hms: description.hms ?? null }));
        else for (const line of formatCredentialsDescription(projectId, description)) out(line);
        // Decrypting (and discarding) proves this HERALD_SECRET_KEY opens them; a mismatch exits 1 after the summary.
        await store.get(projectId);
      });
    });
  providers
    .command('webpush <project-id>')
    .description("generate (--generate) or show (--show) a project's Web Push VAPID keys; generating again rotates: the new key is current, older subscriptions keep theirs")
    .option('--generate', 'generate a VAPID key pair and make it current')
    .option('--subject <mailto-or-https>', 'the VAPID contact (mailto:… or https:…), required the first time')
    .option('--show', 'show the subject and the public keys (the current one is the application server key)')
    .option('--json', 'with --show or --generate: print the summary as JSON')
    .action(async (projectId: string, options: { generate?: boolean; subject?: string; show?: boolean; json?: boolean }) => {
      if ((options.generate === true) === (options.show === true)) throw new ValidationError(['give exactly one of --generate or --show']);
      if (options.show === true && options.subject !== undefined) throw new ValidationError(['--subject goes with --generate']);
      const key = secretKey(env, 'providers webpush');
      await withContext(async ({ mongo, out }) => {
        const store = new WebPushKeyStore(mongo.db, key);
        const summary = options.generate === true ? await store.generate(projectId, options.subject) : await store.summary(projectId);
        if (summary === undefined) throw new ValidationError([`project ${projectId} has no Web Push keys: herald providers webpush ${projectId} --generate --subject mailto:you@example.com`]);
        if (options.json === true) out(JSON.stringify({ project_id: projectId, webpush: summary }));
        else for (const line of formatWebPush(projectId, summary, options.generate === true)) out(line);
        // Decrypting proves this HERALD_SECRET_KEY opens them (as `providers show` does).
        await store.get(projectId);
      });
    });
}

function formatWebPush(projectId: string, summary: WebPushSummary, generated: boolean): string[] {
  const current = currentPublicKey(summary);
  return [
    generated ? `Web Push key ${current.key_id} generated for project ${projectId} (now current)` : `project ${projectId}`,
    `  subject: ${summary.subject}`,
    `  application server key (current, for pushManager.subscribe): ${current.public_key}`,
    ...summary.keys.map((key) => `  key ${key.id}${key.id === current.key_id ? ' (current)' : ''}: created ${key.created_at}`),
  ];
}
