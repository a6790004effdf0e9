import { createTestApnsKey, createTestServiceAccount } from './test-keys.ts';
import type { FakeApns } from './fake-apns.ts';
import type { FakeFcm } from './fake-fcm.ts';

/** Where credentials are stored (the CredentialStore of @herald/admin has this shape). */
export interface CredentialSink {
  setApns(projectId: string, credential: { keyPem: string; keyId: string; teamId: string; bundleId: string; sandbox: boolean }): Promise<unknown>;
  setFcm(projectId: string, credential: { serviceAccount: { project_id: string; client_email: string; private_key: string } }): Promise<unknown>;
}

export const TEST_BUNDLE_ID = 'com.example.herald';

/** Gives a project a fresh APNs key and FCM service account, and tells the fakes to accept them. */
export async function configureTestCredentials(fakes: { apns: FakeApns; fcm: FakeFcm }, credentials: CredentialSink, projectId: string): Promise<void> {
  const key = createTestApnsKey();
  fakes.apns.registerKey({ keyId: key.keyId, teamId: key.teamId, publicKeyPem: key.publicKeyPem });
  await credentials.setApns(projectId, { keyPem: key.keyPem, keyId: key.keyId, teamId: key.teamId, bundleId: TEST_BUNDLE_ID, sandbox: true });
  const account = createTestServiceAccount();
  fakes.fcm.registerAccount({ clientEmail: account.clientEmail, projectId: account.projectId, publicKeyPem: account.publicKeyPem });
  await credentials.setFcm(projectId, { serviceAccount: account.serviceAccount });
}
