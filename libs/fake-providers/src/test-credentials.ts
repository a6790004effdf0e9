import { acceptIdentity, createProviderIdentity, storeIdentity, type CredentialSink } from './local-identity.ts';
import type { FakeApns } from './fake-apns.ts';
import type { FakeFcm } from './fake-fcm.ts';
import type { FakeHms } from './fake-hms.ts';

export { TEST_BUNDLE_ID, type CredentialSink } from './local-identity.ts';

/** Gives a project a fresh APNs key, FCM service account and HMS app, and tells the fakes to accept them. */
export async function configureTestCredentials(fakes: { apns: FakeApns; fcm: FakeFcm; hms?: FakeHms | undefined }, credentials: CredentialSink, projectId: string): Promise<void> {
  const identity = createProviderIdentity();
  acceptIdentity(fakes, identity);
  await storeIdentity(credentials, projectId, identity);
}
