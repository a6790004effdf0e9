import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '@herald/client';
import { apiKey, signOut } from './session.ts';
import { ApiError, timedFetch } from './fetch.ts';

export { ApiError, messagesOf } from './fetch.ts';

/** What the sign-in page says after the API refused the session's key. */
export const KEY_REFUSED = 'You were signed out: the API no longer accepts this API key (it was revoked or has expired). Sign in with a current key.';

/** Adds the session's API key; a 401 (key revoked, expired or wrong) signs out, with the reason kept for the sign-in page. */
const auth: Middleware = {
  onRequest({ request }) {
    const key = apiKey();
    if (key !== undefined) request.headers.set('authorization', `Bearer ${key}`);
    return request;
  },
  async onResponse({ request, response }) {
    const key = apiKey();
    if (response.status === 401 && key !== undefined && request.headers.get('authorization') === `Bearer ${key}`) {
      const said = await response.clone().json().then((body: { errors?: unknown }) => (Array.isArray(body.errors) ? body.errors.join('; ') : ''), () => '');
      signOut(said === '' ? KEY_REFUSED : `${KEY_REFUSED} (The API said: ${said}.)`);
    }
    return response;
  },
};

/** The typed client of the public API v1: paths and bodies checked against the API's own OpenAPI document. */
export const api = createClient<paths>({ baseUrl: window.location.origin, fetch: timedFetch });
api.use(auth);

/** The `{"errors": [...]}` body every failure carries, as one message list. */
export function errorsOf(error: unknown, status: number): string[] {
  const errors = (error as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors.every((item) => typeof item === 'string') ? errors : [`the API answered ${status}`];
}

/** The data of an answer, or an ApiError with the API's messages. */
export function dataOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new ApiError(result.response.status, errorsOf(result.error, result.response.status));
  return result.data;
}
