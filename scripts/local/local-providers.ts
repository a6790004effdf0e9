import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CredentialStore, parseSecretKey } from '@herald/admin';
import type { Db } from '@herald/mongo';
import { acceptIdentity, createFakeTls, LOCAL_PROVIDER_IDENTITY_FILE, localProviderIdentity, startFakeApns, startFakeFcm, storeIdentity } from '@herald/fake-providers';

export interface LocalProviders {
  /** What the delivery process needs to use them: endpoints, and trust of their CA. */
  env: { APNS_ENDPOINT: string; FCM_ENDPOINT: string; NODE_EXTRA_CA_CERTS: string };
  /** Gives a project the credentials these fakes accept. */
  configure(db: Db, secretKey: string, projectId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Fake APNs and FCM (real protocols, on loopback) standing in for Apple and
 * Google in local mode, so the demo delivers end to end with no internet.
 * They accept one provider identity kept in the state dir, so projects given
 * it (the demo, and `herald projects create` in local mode) keep delivering
 * across restarts. Each accepted push is printed, so a developer sees it arrive.
 */
export async function startLocalProviders(stateDir: string, print: (line: string) => void): Promise<LocalProviders> {
  const tls = await createFakeTls();
  const caFile = join(stateDir, 'fake-providers-ca.pem');
  await writeFile(caFile, tls.ca);
  const identity = (await localProviderIdentity(join(stateDir, LOCAL_PROVIDER_IDENTITY_FILE), { create: true }))!;
  const [apns, fcm] = await Promise.all([startFakeApns({ tls, record: false }), startFakeFcm({ tls, record: false })]);
  acceptIdentity({ apns, fcm }, identity);
  apns.onDelivery((delivery) => {
    const alert = (delivery.payload as { aps?: { alert?: { title?: string } } }).aps?.alert;
    print(`APNs accepted a push for token ${delivery.token}: "${alert?.title ?? ''}"`);
  });
  fcm.onDelivery((delivery) => {
    const notification = delivery.message.notification as { title?: string } | undefined;
    print(`FCM accepted a push for token ${delivery.token}: "${notification?.title ?? ''}"`);
  });
  return {
    env: { APNS_ENDPOINT: apns.url, FCM_ENDPOINT: fcm.url, NODE_EXTRA_CA_CERTS: caFile },
    configure: (db, secretKey, projectId) => storeIdentity(new CredentialStore(db, parseSecretKey(secretKey)), projectId, identity),
    close: async () => {
      await Promise.all([apns.close(), fcm.close()]);
    },
  };
}
