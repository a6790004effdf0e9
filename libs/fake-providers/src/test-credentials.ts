import { acceptIdentity, createProviderIdentity, storeIdentity } from './local-identity.ts';
import type { FakeApns } from './fake-apns.ts';
import type { FakeFcm } from './fake-fcm.ts';

/** Where credentials are stored (the CredentialStore of @herald/admin has this shape). */
export interface CredentialSink {
  setApns(projectId: string, credential: { keyPem: string; keyId: string; teamId: string; bundleId: string; sandbox: boolean }): Promise<unknown>;
  setFcm(projectId: string, credential: { serviceAccount: { project_id: string; client_email: string; private_key: string } }): Promise<unknown>;
}

export { TEST_BUNDLE_ID } from './local-identity.ts';

/** Gives a project a fresh APNs key and FCM service account, and tells the fakes to accept them. */
export async function configureTestCredentials(fakes: { apns: FakeApns; fcm: FakeFcm }, credentials: CredentialSink, projectId: string): Promise<void> {
  const identity = createProviderIdentity();
  acceptIdentity(fakes, identity);
  await storeIdentity(credentials, projectId, identity);
}
