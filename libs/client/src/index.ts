import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { components, operations, paths } from './schema.d.ts';

export interface HeraldClientOptions {
  /** The API's origin, e.g. `https://push.example.com` (paths start with `/api/v1/...`). */
  baseUrl: string;
  /** The project's API key, sent as `Authorization: Bearer <key>`; device-facing calls work without one. */
  apiKey?: string;
  /** A fetch of your own (tests, proxies); the global fetch otherwise. */
  fetch?: (request: Request) => Promise<Response>;
}

/** A client of the public API v1: every path, parameter and body is checked against the API's OpenAPI document. */
export type HeraldClient = Client<paths>;

/** Creates a client; each call resolves to `{ data }` or `{ error }` (the API's `{"errors": [...]}`) with its `response`. */
export function createHeraldClient(options: HeraldClientOptions): HeraldClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.apiKey === undefined ? {} : { headers: { authorization: `Bearer ${options.apiKey}` } }),
  });
}

/** The messages of an `{"errors": [...]}` body (every failure of the API has one), or one naming the status. */
export function errorMessages(error: unknown, status: number): string[] {
  const errors = (error as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors.every((item) => typeof item === 'string') ? errors : [`the API answered ${status}`];
}
