import { keyIdOfPublicKey, type WebPushSummary } from '@herald/admin';
import type { RegisterDeviceInput, TokenedRegistration } from './device-registration.ts';
import { storedSubscription, webSubscriptionProblems, type StoredSubscription } from './web-subscription.ts';

export type PreparedRegistration =
  | { ok: true; input: TokenedRegistration; subscription?: StoredSubscription }
  /** `status` 400: the body is wrong; 422: it is right but the project cannot take web devices yet. */
  | { ok: false; status: 400 | 422; problems: string[] };

/**
 * Gives a registration its token (pure): an APNs or FCM token as sent; for
 * a web device, its subscription's endpoint, so the device id is derived
 * from (project, endpoint) and a new endpoint is a token refresh under the
 * usual proof. A web registration needs the project's Web Push keys
 * (`keys`): the subscription is recorded with the key it was made with
 * (`application_server_key`, or the current key), which its pushes are
 * signed with for as long as it lives.
 */
export function prepareRegistration(input: RegisterDeviceInput, keys: WebPushSummary | undefined, local: boolean, hosts?: readonly string[]): PreparedRegistration {
  if (input.platform !== 'web') {
    const problems = [
      ...(input.token === undefined ? [`token is required for platform ${input.platform}`] : []),
      ...(input.subscription === undefined ? [] : ['subscription is only for platform web']),
      ...(input.application_server_key === undefined ? [] : ['application_server_key is only for platform web']),
    ];
    return problems.length > 0 ? { ok: false, status: 400, problems } : { ok: true, input: input as TokenedRegistration };
  }
  if (input.token !== undefined) return { ok: false, status: 400, problems: ["token is not used for platform web: send the browser's subscription (PushSubscription.toJSON()) as subscription"] };
  if (input.subscription === undefined) return { ok: false, status: 400, problems: ["subscription is required for platform web: the browser's PushSubscription.toJSON()"] };
  const problems = webSubscriptionProblems(input.subscription, local, hosts);
  if (problems.length > 0) return { ok: false, status: 400, problems };
  if (keys === undefined) {
    return { ok: false, status: 422, problems: [`project_id ${input.project_id} has no Web Push keys: its operator generates them with herald providers webpush ${input.project_id} --generate`] };
  }
  const keyId = input.application_server_key === undefined ? keys.current_key_id : keyIdOfPublicKey(keys, input.application_server_key);
  if (keyId === undefined) return { ok: false, status: 400, problems: ["application_server_key is not one of the project's Web Push keys (GET /api/v1/webpush/public-key gives the current one)"] };
  const { subscription: _subscription, application_server_key: _key, ...rest } = input;
  return { ok: true, input: { ...rest, token: input.subscription.endpoint }, subscription: storedSubscription(input.subscription, keyId) };
}
