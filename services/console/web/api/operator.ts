import { ApiError, errorsOf } from './client.ts';
import { timedFetch } from './fetch.ts';

/**
 * The operator's session and calls (/admin/v1, HERALD_ADMIN_TOKEN): apart
 * from the project session, in this tab's sessionStorage only. The admin
 * endpoints are not part of the public API document, so these are plain
 * fetches (docs/reference/operator-api.md describes their bodies).
 */
const STORAGE_KEY = 'herald.adminToken';
const listeners = new Set<() => void>();

export function adminToken(): string | undefined {
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}

export function operatorSignIn(token: string): void {
  sessionStorage.setItem(STORAGE_KEY, token);
  for (const listener of listeners) listener();
}

export function operatorSignOut(): void {
  sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener();
}

export function onOperatorSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface DeadLetterCount {
  topic: string;
  group: string;
  kind: 'undecodable' | 'schema-invalid' | 'handler-error';
  error: string;
  /** The `error` filter that selects this row's dead letters. */
  match: string;
  count: number;
  oldest: string;
  newest: string;
}

export interface RedriveResult {
  dry_run: boolean;
  redriven: Array<{ ref: string; source: string; group: string; kind: string; error: string; redrives: number }>;
  already_redriven: Array<{ ref: string; redriven_at: string; to: string }>;
}

export interface DeadLetterFilter {
  topic?: string;
  group?: string;
  error?: string;
}

/** One call with `token` (the session's unless given); a 401 signs the operator out, other failures are ApiErrors with the API's messages. */
async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, token = adminToken()): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await timedFetch(`${window.location.origin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await response.json().catch(() => undefined)) as { data?: T } | undefined;
  if (response.ok && json?.data !== undefined) return json.data;
  if (response.status === 401 && token === adminToken()) operatorSignOut();
  throw new ApiError(response.status, errorsOf(json, response.status));
}

export const deadLetterCounts = (token?: string) => call<DeadLetterCount[]>('GET', '/admin/v1/dead-letters', undefined, token);

export const redrive = (filter: DeadLetterFilter, dryRun: boolean) => call<RedriveResult>('POST', '/admin/v1/dead-letters/redrive', { ...filter, dry_run: dryRun });
