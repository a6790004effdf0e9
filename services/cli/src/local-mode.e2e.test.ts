import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialStore, generateSecretKey, parseSecretKey, WebPushKeyStore } from '@herald/admin';
import { LOCAL_PROVIDER_IDENTITY_FILE, type ProviderIdentity } from '@herald/fake-providers';
import { createTestEnv, REPO_ROOT, type TestEnv } from '@herald/testing';

/**
 * Local mode as `npm start` leaves it: a state dir with secret.key. The CLI,
 * with HERALD_SECRET_KEY unset, reads that key and gives a new project the
 * credentials the local fakes accept, unless told not to.
 */
let env: TestEnv;
let stateDir: string;
const secret = generateSecretKey();

async function herald(args: string[], extra: Record<string, string> = {}): Promise<string> {
  const { HERALD_SECRET_KEY: _, ...inherited } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['services/cli/src/main.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, MONGO_URL: env.mongoUrl, KAFKA_BROKERS: env.kafkaBrokers, KAFKA_TOPIC_PREFIX: env.prefix, HERALD_STATE_DIR: stateDir, ...extra },
  });
  return stdout;
}

beforeAll(async () => {
  env = await createTestEnv('cli-local-mode');
  stateDir = await mkdtemp(join(tmpdir(), 'herald-state-'));
  await writeFile(join(stateDir, 'secret.key'), `${secret}\n`, { mode: 0o600 });
});
afterAll(async () => {
  await env?.close();
  if (stateDir !== undefined) await rm(stateDir, { recursive: true, force: true });
});

describe('herald projects create in local mode', () => {
  it('uses .herald/secret.key and gives the project the local fake providers, kept for the next start', async () => {
    const { id } = JSON.parse(await herald(['projects', 'create', 'local-one', '--json'])) as { id: string };
    const identityFile = join(stateDir, LOCAL_PROVIDER_IDENTITY_FILE);
    expect((await stat(identityFile)).mode & 0o777).toBe(0o600);
    const identity = JSON.parse(await readFile(identityFile, 'utf8')) as ProviderIdentity;
    // Stored encrypted with the local key: it decrypts with it, to the identity the fakes will accept.
    const credentials = await new CredentialStore(env.mongo.db, parseSecretKey(secret)).get(id);
    expect(credentials.apns).toMatchObject({ keyId: identity.apns.keyId, teamId: identity.apns.teamId });
    expect(credentials.fcm?.serviceAccount.client_email).toBe(identity.fcm.clientEmail);

    // And Web Push keys of its own, sealed with the same local key.
    const webpush = await new WebPushKeyStore(env.mongo.db, parseSecretKey(secret)).get(id);
    expect(webpush).toMatchObject({ subject: 'mailto:push@herald.localhost', keys: [expect.objectContaining({ public_key: expect.any(String) })] });

    // A second project shares the same identity (one key pair per local install).
    const second = JSON.parse(await herald(['projects', 'create', 'local-two', '--json'])) as { id: string };
    expect((await new CredentialStore(env.mongo.db, parseSecretKey(secret)).get(second.id)).apns?.keyId).toBe(identity.apns.keyId);
  });

  it('leaves the project without credentials with --no-fake-providers, and says what that means', async () => {
    const output = await herald(['projects', 'create', 'bare']);
    expect(output).toContain('local fake APNs and FCM');
    const skipped = await herald(['projects', 'create', 'bare-two', '--no-fake-providers']);
    expect(skipped).toContain('NoApnsCredentials');
    const id = /id:\s+(\S+)/.exec(skipped)![1]!;
    expect(await new CredentialStore(env.mongo.db, parseSecretKey(secret)).get(id)).toEqual({});
    expect(await new WebPushKeyStore(env.mongo.db, parseSecretKey(secret)).get(id)).toBeUndefined();
  });

  it('is not local mode when HERALD_SECRET_KEY is set: nothing is stored', async () => {
    const { id } = JSON.parse(await herald(['projects', 'create', 'prod', '--json'], { HERALD_SECRET_KEY: generateSecretKey() })) as { id: string };
    expect(await new CredentialStore(env.mongo.db, parseSecretKey(secret)).get(id)).toEqual({});
  });
});
