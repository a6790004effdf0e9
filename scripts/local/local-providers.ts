import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CredentialStore, currentPublicKey, parseSecretKey, summarizeWebPush, WebPushKeyStore } from '@herald/admin';
import type { Store } from '@herald/mongo';
import {
  acceptIdentity,
  createFakeTls,
  LOCAL_PROVIDER_IDENTITY_FILE,
  localProviderIdentity,
  startFakeApns,
  startFakeFcm,
  startFakeHms,
  startFakeWebPush,
  storeIdentity,
  type FakeBrowserSubscription,
} from '@herald/fake-providers';

/** The VAPID subject of local projects (the same as `herald projects create` gives in local mode). */
const LOCAL_VAPID_SUBJECT = 'mailto:push@herald.localhost';

export interface LocalProviders {
  /** What the delivery process needs to use them: endpoints, and trust of their CA. */
  env: { APNS_ENDPOINT: string; FCM_ENDPOINT: string; HMS_ENDPOINT: string; HMS_TOKEN_ENDPOINT: string; NODE_EXTRA_CA_CERTS: string };
  /**
   * Gives a project the credentials these fakes accept, and Web Push keys when it has none;
   * answers a browser subscription of the fake push service made with the project's current key (for the quick start).
   */
  configure(db: Store, secretKey: string, projectId: string): Promise<{ webSubscription: FakeBrowserSubscription }>;
  close(): Promise<void>;
}

/**
 * Fake APNs, FCM, Huawei Push Kit and a Web Push service (real protocols, on loopback)
 * standing in for Apple, Google, Huawei and the browsers' push services in local mode, so the demo delivers end to end with no internet.
 * They accept one provider identity kept in the state dir, so projects given
 * it (the demo, and `herald projects create` in local mode) keep delivering
 * across restarts. Each accepted push is printed, so a developer sees it arrive.
 */
export async function startLocalProviders(stateDir: string, print: (line: string) => void): Promise<LocalProviders> {
  const tls = await createFakeTls();
  const caFile = join(stateDir, 'fake-providers-ca.pem');
  await writeFile(caFile, tls.ca);
  const identity = (await localProviderIdentity(join(stateDir, LOCAL_PROVIDER_IDENTITY_FILE), { create: true }))!;
  const [apns, fcm, webpush, hms] = await Promise.all([
    startFakeApns({ tls, record: false }),
    startFakeFcm({ tls, record: false }),
    startFakeWebPush({ tls, record: false }),
    startFakeHms({ tls, record: false }),
  ]);
  acceptIdentity({ apns, fcm, hms }, identity);
  apns.onDelivery((delivery) => {
    const alert = (delivery.payload as { aps?: { alert?: { title?: string } } }).aps?.alert;
    print(`APNs accepted a push for token ${delivery.token}: "${alert?.title ?? ''}"`);
  });
  fcm.onDelivery((delivery) => {
    const notification = delivery.message.notification as { title?: string } | undefined;
    print(`FCM accepted a push for token ${delivery.token}: "${notification?.title ?? ''}"`);
  });
  hms.onDelivery((delivery) => {
    const notification = (delivery.message.android as { notification?: { title?: string } } | undefined)?.notification;
    print(`HMS Push Kit accepted a push for ${delivery.tokens.length} token(s) of app ${delivery.appId}: "${notification?.title ?? ''}"`);
  });
  webpush.onDelivery((delivery) => {
    const notification = (JSON.parse(delivery.plaintext) as { notification?: { title?: string } }).notification;
    print(`Web Push service decrypted a push for ${delivery.endpoint}: "${notification?.title ?? ''}"`);
  });
  return {
    env: { APNS_ENDPOINT: apns.url, FCM_ENDPOINT: fcm.url, HMS_ENDPOINT: hms.url, HMS_TOKEN_ENDPOINT: hms.tokenUrl, NODE_EXTRA_CA_CERTS: caFile },
    configure: async (db, secretKey, projectId) => {
      const key = parseSecretKey(secretKey);
      await storeIdentity(new CredentialStore(db, key), projectId, identity);
      const keys = new WebPushKeyStore(db, key);
      const stored = await keys.get(projectId);
      const summary = stored === undefined ? await keys.generate(projectId, LOCAL_VAPID_SUBJECT) : summarizeWebPush(stored);
      // The fake keeps its subscriptions in memory: each start makes a new one, as a browser re-subscribing would.
      return { webSubscription: webpush.subscribe({ label: 'demo-', applicationServerKey: currentPublicKey(summary).public_key }) };
    },
    close: async () => {
      await Promise.all([apns.close(), fcm.close(), webpush.close(), hms.close()]);
    },
  };
}
