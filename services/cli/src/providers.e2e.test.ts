import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { generateSecretKey } from '@herald/admin';
import { createTestApnsKey, createTestServiceAccount, type TestApnsKey, type TestServiceAccount } from '@herald/fake-providers';
import { createTestEnv, REPO_ROOT, type TestEnv } from '@herald/testing';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let env: TestEnv;
let dir: string;
const secret = generateSecretKey();

/** Runs the real CLI as its own process against the test infrastructure; never rejects, so exit codes can be asserted. */
function herald(args: string[], options: { secret?: string | undefined } = { secret }): Promise<Run> {
  const { HERALD_SECRET_KEY: _, ...inherited } = process.env;
  const childEnv = {
    ...inherited,
    MONGO_URL: env.mongoUrl,
    KAFKA_BROKERS: env.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: env.prefix,
    ...(options.secret === undefined ? {} : { HERALD_SECRET_KEY: options.secret }),
  };
  return new Promise((resolve) => {
    execFile(process.execPath, ['services/cli/src/main.ts', ...args], { cwd: REPO_ROOT, env: childEnv }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function createProject(name: string): Promise<string> {
  const run = await herald(['projects', 'create', name, '--json']);
  expect(run).toMatchObject({ code: 0 });
  return (JSON.parse(run.stdout) as { id: string }).id;
}

async function file(name: string, contents: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, contents);
  return path;
}

const stored = (projectId: string) => env.driverDb.collection(ADMIN_COLLECTIONS.providerCredentials).findOne({ _id: projectId as never });

/** Lines of base64 inside a PEM: the key material itself. */
const keyBody = (pem: string) => pem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));

function expectNoSecrets(output: string, ...pems: string[]): void {
  expect(output).not.toContain('-----BEGIN');
  expect(output).not.toContain('PRIVATE KEY');
  for (const pem of pems) for (const line of keyBody(pem)) expect(output).not.toContain(line);
}

let apnsKey: TestApnsKey;
let account: TestServiceAccount;
let p8: string;
let accountFile: string;
const apnsArgs = (projectId: string, keyFile: string, overrides: Record<string, string> = {}) => {
  const flags = { '--key-file': keyFile, '--key-id': apnsKey.keyId, '--team-id': apnsKey.teamId, '--bundle-id': 'com.example.herald', ...overrides };
  return ['providers', 'apns', projectId, ...Object.entries(flags).flat()];
};

beforeAll(async () => {
  env = await createTestEnv('cli-providers');
  dir = await mkdtemp(join(tmpdir(), 'herald-providers-'));
  apnsKey = createTestApnsKey();
  account = createTestServiceAccount();
  p8 = await file(`AuthKey_${apnsKey.keyId}.p8`, apnsKey.keyPem);
  accountFile = await file('service-account.json', JSON.stringify(account.serviceAccount, null, 2));
});
afterAll(async () => {
  await env?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('herald providers', () => {
  it('sets APNs and FCM credentials and shows them without secrets', async () => {
    const projectId = await createProject('both');

    const apns = await herald([...apnsArgs(projectId, p8), '--sandbox']);
    expect(apns).toMatchObject({ code: 0, stderr: '' });
    expect(apns.stdout).toBe(`APNs credentials set for project ${projectId}: key ${apnsKey.keyId}, team ${apnsKey.teamId}, topic com.example.herald, sandbox\n`);

    const fcm = await herald(['providers', 'fcm', projectId, '--service-account', accountFile]);
    expect(fcm).toMatchObject({ code: 0, stderr: '' });
    expect(fcm.stdout).toBe(`FCM credentials set for project ${projectId}: Firebase project ${account.projectId}, ${account.clientEmail}\n`);

    const text = await herald(['providers', 'show', projectId]);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(new RegExp(`^project ${projectId}\n  apns: key ${apnsKey.keyId}, team ${apnsKey.teamId}, topic com\\.example\\.herald, sandbox; set \\S+\n  fcm:  project ${account.projectId}, ${account.clientEmail.replace(/\./g, '\\.')}; set \\S+\n  hms:  not configured\n$`));

    const json = await herald(['providers', 'show', projectId, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      project_id: projectId,
      apns: { keyId: apnsKey.keyId, teamId: apnsKey.teamId, bundleId: 'com.example.herald', sandbox: true, set_at: expect.any(String) },
      fcm: { project_id: account.projectId, client_email: account.clientEmail, set_at: expect.any(String) },
      hms: null,
    });

    for (const run of [apns, fcm, text, json]) {
      expectNoSecrets(run.stdout + run.stderr, apnsKey.keyPem, account.serviceAccount.private_key);
      expect(run.stdout).not.toMatch(/private_key|keyPem/);
    }
    // At rest too: only sealed boxes and summaries.
    expectNoSecrets(JSON.stringify(await stored(projectId)), apnsKey.keyPem, account.serviceAccount.private_key);
  });

  it('shows a project without credentials as not configured', async () => {
    const projectId = await createProject('none');
    const run = await herald(['providers', 'show', projectId]);
    expect(run).toMatchObject({ code: 0, stdout: `project ${projectId}\n  apns: not configured\n  fcm:  not configured\n  hms:  not configured\n` });
    expect(JSON.parse((await herald(['providers', 'show', projectId, '--json'])).stdout)).toEqual({ project_id: projectId, apns: null, fcm: null, hms: null });
  });

  it('sets HMS credentials (the secret from a file or the flag), shows them without the secret, refuses bad ids naming the flag', async () => {
    const projectId = await createProject('hms');
    const hmsSecret = 'c0ffee'.repeat(10) + 'beef';
    const secretFile = await file('hms-secret.txt', `${hmsSecret}\n`);
    const set = await herald(['providers', 'hms', projectId, '--app-id', '101234567', '--client-id', '101234568', '--client-secret-file', secretFile]);
    expect(set).toMatchObject({ code: 0, stderr: '', stdout: `HMS credentials set for project ${projectId}: app 101234567, client 101234568\n` });
    const json = await herald(['providers', 'show', projectId, '--json']);
    expect(JSON.parse(json.stdout).hms).toEqual({ app_id: '101234567', client_id: '101234568', set_at: expect.any(String) });
    const text = await herald(['providers', 'show', projectId]);
    expect(text.stdout).toMatch(/\n {2}hms: {2}app 101234567, client 101234568; set \S+\n$/);
    for (const run of [set, json, text]) expect(run.stdout + run.stderr).not.toContain(hmsSecret);
    expect(JSON.stringify(await stored(projectId))).not.toContain(hmsSecret);

    const bad = await herald(['providers', 'hms', projectId, '--app-id', 'com.example', '--client-id', '1', '--client-secret', 'x y']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--app-id must be the numeric App ID/);
    expect(bad.stderr).toMatch(/--client-secret must be the Client secret/);
    const both = await herald(['providers', 'hms', projectId, '--app-id', '1', '--client-id', '1']);
    expect(both.stderr).toMatch(/give exactly one of --client-secret or --client-secret-file/);
  });

  it('refuses a file that is not an AuthKey .p8, a missing file, and bad ids; stores nothing', async () => {
    const projectId = await createProject('bad-apns');
    const rsaKey = await file('rsa.p8', account.serviceAccount.private_key);
    const junk = await file('junk.p8', 'not a key at all\n');
    const cases: Array<[string[], string]> = [
      [apnsArgs(projectId, rsaKey), 'herald: --key-file must be an EC P-256 (prime256v1) private key, as in an AuthKey .p8 file\n'],
      [apnsArgs(projectId, junk), 'herald: --key-file must be an unencrypted PEM private key (an AuthKey .p8 file)\n'],
      [apnsArgs(projectId, join(dir, 'missing.p8')), `herald: --key-file ${join(dir, 'missing.p8')} does not exist\n`],
      [apnsArgs(projectId, dir), `herald: --key-file ${dir} is not a file\n`],
      [
        apnsArgs(projectId, p8, { '--key-id': 'abc', '--team-id': 'abcdefghij', '--bundle-id': 'herald' }),
        [
          "herald: --key-id must be 10 upper-case letters or digits (Apple's Key ID)",
          "  --team-id must be 10 upper-case letters or digits (Apple's Team ID)",
          '  --bundle-id must be a reverse-DNS bundle id of letters, digits, hyphens and periods (e.g. com.example.app)\n',
        ].join('\n'),
      ],
    ];
    for (const [args, message] of cases) {
      const run = await herald(args);
      expect(run, args.join(' ')).toEqual({ code: 1, stdout: '', stderr: message });
      expectNoSecrets(run.stderr, account.serviceAccount.private_key, apnsKey.keyPem);
    }
    expect(await stored(projectId)).toBeNull();
  });

  it('refuses a file that is not a service-account JSON; stores nothing', async () => {
    const projectId = await createProject('bad-fcm');
    const userCredential = await file('user.json', JSON.stringify({ ...account.serviceAccount, type: 'authorized_user', private_key: apnsKey.keyPem }));
    const cases: Array<[string, string]> = [
      [p8, `herald: --service-account ${p8} is not valid JSON; expected a Google service-account key file\n`],
      [userCredential, 'herald: --service-account type must be "service_account"\n  --service-account private_key must be an RSA private key\n'],
      [await file('array.json', '[]'), 'herald: --service-account must be a JSON object (a Google service-account key file)\n'],
    ];
    for (const [path, message] of cases) {
      const run = await herald(['providers', 'fcm', projectId, '--service-account', path]);
      expect(run, path).toEqual({ code: 1, stdout: '', stderr: message });
      expectNoSecrets(run.stderr, apnsKey.keyPem);
    }
    expect(await stored(projectId)).toBeNull();
  });

  it('refuses every providers command without HERALD_SECRET_KEY, or with a malformed one', async () => {
    const projectId = await createProject('no-secret');
    for (const args of [apnsArgs(projectId, p8), ['providers', 'fcm', projectId, '--service-account', accountFile], ['providers', 'show', projectId]]) {
      const unset = await herald(args, { secret: undefined });
      expect(unset.code, args.join(' ')).toBe(1);
      expect(unset.stderr).toMatch(new RegExp(`^herald: HERALD_SECRET_KEY is not set: \`herald providers ${args[1]}\` needs the key that encrypts provider credentials`));
      const short = await herald(args, { secret: 'dG9vIHNob3J0' });
      expect(short).toMatchObject({ code: 1, stderr: 'herald: HERALD_SECRET_KEY must be the base64 or hex encoding of at least 32 bytes (e.g. `openssl rand -base64 32`); it decodes to 9 bytes\n' });
    }
    expect(await stored(projectId)).toBeNull();
  });

  it('refuses an unknown project', async () => {
    for (const args of [apnsArgs('no-such-project', p8), ['providers', 'fcm', 'no-such-project', '--service-account', accountFile], ['providers', 'show', 'no-such-project']]) {
      expect(await herald(args), args.join(' ')).toEqual({ code: 1, stdout: '', stderr: 'herald: project no-such-project does not exist\n' });
    }
    expect(await stored('no-such-project')).toBeNull();
  });

  it('show with another HERALD_SECRET_KEY prints the summary, then fails: it cannot decrypt', async () => {
    const projectId = await createProject('other-key');
    expect((await herald(apnsArgs(projectId, p8))).code).toBe(0);
    const run = await herald(['providers', 'show', projectId], { secret: generateSecretKey() });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`apns: key ${apnsKey.keyId}`);
    expect(run.stderr).toBe(
      `herald: APNs credentials of project ${projectId}: stored secret cannot be decrypted: HERALD_SECRET_KEY is not the key it was sealed with, or the stored record was altered or moved\n`,
    );
  });
});

describe('herald providers webpush', () => {
  it('generates a VAPID pair, shows only public keys, and rotates keeping the old key', async () => {
    const projectId = await createProject('webpush');
    const first = await herald(['providers', 'webpush', projectId, '--generate', '--subject', 'mailto:push@example.com', '--json']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const made = (JSON.parse(first.stdout) as { webpush: { current_key_id: string; subject: string; keys: Array<{ id: string; public_key: string }> } }).webpush;
    expect(made.subject).toBe('mailto:push@example.com');
    expect(Buffer.from(made.keys[0]!.public_key, 'base64url')).toHaveLength(65);

    const rotated = await herald(['providers', 'webpush', projectId, '--generate']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(new RegExp(`^Web Push key \\S+ generated for project ${projectId} \\(now current\\)\n  subject: mailto:push@example\\.com\n`));

    const shown = await herald(['providers', 'webpush', projectId, '--show']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`key ${made.current_key_id}: created`);
    expect(shown.stdout).toMatch(/\(current\): created/);
    expect(shown.stdout.match(/^ {2}key /gm)).toHaveLength(2);
    expect(shown.stdout + JSON.stringify(await stored(projectId))).not.toMatch(/private_key/);
  });

  it('refuses a first key without a subject, a subject that is no mailto:/https: URI, and no or both actions', async () => {
    const projectId = await createProject('webpush-bad');
    const runs = [
      await herald(['providers', 'webpush', projectId, '--generate']),
      await herald(['providers', 'webpush', projectId, '--generate', '--subject', 'push@example.com']),
      await herald(['providers', 'webpush', projectId]),
      await herald(['providers', 'webpush', projectId, '--generate', '--show']),
      await herald(['providers', 'webpush', projectId, '--show']),
    ];
    expect(runs.map((run) => run.code)).toEqual([1, 1, 1, 1, 1]);
    expect(runs[0]!.stderr).toContain('subject is required');
    expect(runs[1]!.stderr).toContain('subject must be a mailto: or https: URI');
    expect(runs[2]!.stderr).toContain('give exactly one of --generate or --show');
    expect(runs[4]!.stderr).toContain('has no Web Push keys');
  });
});
