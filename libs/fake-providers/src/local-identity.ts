import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createTestApnsKey, createTestServiceAccount, type TestApnsKey, type TestServiceAccount } from './test-keys.ts';
import type { FakeApns } from './fake-apns.ts';
import type { FakeFcm } from './fake-fcm.ts';
import type { FakeHms } from './fake-hms.ts';
import type { HmsAppRegistration } from './hms-checks.ts';

/** Where credentials are stored (the CredentialStore of @herald/admin has this shape). */
export interface CredentialSink {
  setApns(projectId: string, credential: { keyPem: string; keyId: string; teamId: string; bundleId: string; sandbox: boolean }): Promise<unknown>;
  setFcm(projectId: string, credential: { serviceAccount: { project_id: string; client_email: string; private_key: string } }): Promise<unknown>;
  setHms(projectId: string, credential: HmsAppRegistration): Promise<unknown>;
}

export const TEST_BUNDLE_ID = 'com.example.herald';

/** One APNs key and one FCM service account that a pair of fakes accepts. */
export interface ProviderIdentity {
  apns: TestApnsKey;
  fcm: TestServiceAccount;
  /** Absent from identity files written before HMS: added (and saved) on the next read. */
  hms?: HmsAppRegistration;
}

/** An AppGallery Connect-like app: numeric ids (the client id is the app id, as AppGallery Connect gives it) and a 64-hex secret. */
export function createTestHmsApp(): HmsAppRegistration {
  const appId = String(randomInt(100_000_000, 999_999_999));
  return { appId, clientId: appId, clientSecret: randomBytes(32).toString('hex') };
}

export function createProviderIdentity(): ProviderIdentity {
  return { apns: createTestApnsKey(), fcm: createTestServiceAccount(), hms: createTestHmsApp() };
}

/** Tells the fakes to accept the identity's provider tokens. */
export function acceptIdentity(fakes: { apns: FakeApns; fcm: FakeFcm; hms?: FakeHms | undefined }, identity: ProviderIdentity): void {
  const { apns, fcm } = identity;
  if (fakes.hms !== undefined && identity.hms !== undefined) fakes.hms.registerApp(identity.hms);
  fakes.apns.registerKey({ keyId: apns.keyId, teamId: apns.teamId, publicKeyPem: apns.publicKeyPem });
  fakes.fcm.registerAccount({ clientEmail: fcm.clientEmail, projectId: fcm.projectId, publicKeyPem: fcm.publicKeyPem });
}

/** Stores the identity as a project's APNs, FCM and (when it has one) HMS credentials. */
export async function storeIdentity(credentials: CredentialSink, projectId: string, identity: ProviderIdentity): Promise<void> {
  const { apns, fcm } = identity;
  await credentials.setApns(projectId, { keyPem: apns.keyPem, keyId: apns.keyId, teamId: apns.teamId, bundleId: TEST_BUNDLE_ID, sandbox: true });
  await credentials.setFcm(projectId, { serviceAccount: fcm.serviceAccount });
  if (identity.hms !== undefined) await credentials.setHms(projectId, identity.hms);
}

/** Where, inside local mode's state dir (.herald), the identity its fakes accept is kept. */
export const LOCAL_PROVIDER_IDENTITY_FILE = 'local-providers.json';

/**
 * The identity local mode's fakes accept, kept in a file (mode 0600) so that
 * every `npm start` accepts the same keys and a project the CLI created
 * yesterday still delivers today. Created on first use when `create` is set;
 * undefined when the file is absent and `create` is not.
 */
export async function localProviderIdentity(file: string, options: { create: boolean }): Promise<ProviderIdentity | undefined> {
  const saved = await readFile(file, 'utf8').then((text) => JSON.parse(text) as ProviderIdentity, () => undefined);
  if (saved !== undefined && (saved.hms !== undefined || !options.create)) return saved;
  if (saved === undefined && !options.create) return undefined;
  // A file from before HMS keeps its APNs key and service account (projects hold them) and gains an HMS app.
  const identity = saved === undefined ? createProviderIdentity() : { ...saved, hms: createTestHmsApp() };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(identity)}\n`, { mode: 0o600 });
  return identity;
}
