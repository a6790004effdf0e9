import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '@herald/client';
import { apiKey, signOut } from './session.ts';

/** Adds the session's API key; a 401 (key revoked or wrong) signs out. */
const auth: Middleware = {
  onRequest({ request }) {
    const key = apiKey();
    if (key !== undefined) request.headers.set('authorization', `Bearer ${key}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401 && apiKey() !== undefined) signOut();
    return response;
  },
};

/** The typed client of the public API v1: paths and bodies checked against the API's own OpenAPI document. */
export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(auth);

/** The `{"errors": [...]}` body every failure carries, as one message list. */
export function errorsOf(error: unknown, status: number): string[] {
  const errors = (error as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors.every((item) => typeof item === 'string') ? errors : [`the API answered ${status}`];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
  ) {
    super(errors.join('; '));
  }
}

/** The data of an answer, or an ApiError with the API's messages. */
export function dataOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new ApiError(result.response.status, errorsOf(result.error, result.response.status));
  return result.data;
}
