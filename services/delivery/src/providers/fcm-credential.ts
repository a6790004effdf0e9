import type { Agent } from 'node:https';
import type { Credential, GoogleOAuthAccessToken } from 'firebase-admin/app';
import { JWT } from 'google-auth-library';
import { AppError } from '@herald/errors';

/** FCM HTTP v1 needs only this scope (https://firebase.google.com/docs/cloud-messaging/auth-server). */
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string | undefined;
}

/**
 * The OAuth side of a project's FCM credential: Google's JWT-bearer grant,
 * done by google-auth-library's `JWT` client — the same client firebase-admin's
 * `cert()` builds — but constructed here so that `agent` really carries the
 * token request. firebase-admin 14.5 drops `cert(object, agent)`'s agent: it
 * builds the client with `GoogleAuth.fromJSON(json)` and no options
 * (https://github.com/firebase/firebase-admin-node/issues/2960).
 *
 * firebase-admin caches the returned token and asks again ~5 minutes before
 * it expires; `JWT` caches too.
 */
export function serviceAccountCredential(account: ServiceAccountKey, agent?: Agent): Credential {
  const client = new JWT({
    email: account.client_email,
    key: account.private_key,
    ...(account.private_key_id === undefined ? {} : { keyId: account.private_key_id }),
    scopes: [FCM_SCOPE],
    ...(agent === undefined ? {} : { transporterOptions: { agent } }),
  });
  return {
    async getAccessToken(): Promise<GoogleOAuthAccessToken> {
      const { token } = await client.getAccessToken();
      const expiry = client.credentials.expiry_date;
      if (typeof token !== 'string' || token === '' || typeof expiry !== 'number') {
        throw new AppError('INTERNAL', 'Google token endpoint answered without an access token and expiry');
      }
      return { access_token: token, expires_in: Math.floor((expiry - Date.now()) / 1000) };
    },
  };
}
