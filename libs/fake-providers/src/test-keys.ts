import { generateKeyPairSync, randomBytes, randomInt } from 'node:crypto';

/** An APNs token-auth signing key as Apple issues it (.p8), plus what a fake needs to check it. */
export interface TestApnsKey {
  /** EC P-256 private key, PKCS#8 PEM: the contents of an `AuthKey_<keyId>.p8` file. */
  keyPem: string;
  publicKeyPem: string;
  keyId: string;
  teamId: string;
}

/** A Google service-account key file, the parts firebase-admin reads. */
export interface ServiceAccountJson {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
  universe_domain: string;
}

export interface TestServiceAccount {
  /** What an operator would upload as the project's FCM credential. */
  serviceAccount: ServiceAccountJson;
  publicKeyPem: string;
  clientEmail: string;
  projectId: string;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Apple key and team ids are 10 upper-case alphanumerics. */
function appleId(): string {
  return Array.from({ length: 10 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

export function createTestApnsKey(options: { keyId?: string; teamId?: string } = {}): TestApnsKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { keyPem: privateKey, publicKeyPem: publicKey, keyId: options.keyId ?? appleId(), teamId: options.teamId ?? appleId() };
}

/** A service account with a fresh RSA key; the token URIs are Google's, as in a real key file. */
export function createTestServiceAccount(options: { projectId?: string } = {}): TestServiceAccount {
  const projectId = options.projectId ?? `herald-test-${randomBytes(3).toString('hex')}`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const clientEmail = `herald-test@${projectId}.iam.gserviceaccount.com`;
  return {
    serviceAccount: {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey,
      client_email: clientEmail,
      client_id: String(randomInt(1e9, 1e10)) + String(randomInt(1e9, 1e10)),
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: 'https://oauth2.googleapis.com/token',
      universe_domain: 'googleapis.com',
    },
    publicKeyPem: publicKey,
    clientEmail,
    projectId,
  };
}
