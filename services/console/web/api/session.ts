/**
 * The project API key for this browser tab's session: in memory, and in
 * sessionStorage so a reload or a bookmarked screen keeps working. Never in
 * localStorage, a cookie or a URL; gone when the tab closes or on sign-out.
 * A sign-out the person did not ask for (the API refused the key) leaves its
 * reason for the sign-in page, in the same tab's storage.
 */
const STORAGE_KEY = 'herald.apiKey';
const REASON_KEY = 'herald.signedOutBecause';

let current: string | undefined;
const listeners = new Set<() => void>();

export function apiKey(): string | undefined {
  current ??= sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  return current;
}

export function signIn(key: string): void {
  current = key;
  sessionStorage.setItem(STORAGE_KEY, key);
  sessionStorage.removeItem(REASON_KEY);
  for (const listener of listeners) listener();
}

export function signOut(reason?: string): void {
  current = undefined;
  sessionStorage.removeItem(STORAGE_KEY);
  if (reason === undefined) sessionStorage.removeItem(REASON_KEY);
  else sessionStorage.setItem(REASON_KEY, reason);
  for (const listener of listeners) listener();
}

/** Why the last session ended, when the person did not sign out themselves. */
export function signedOutBecause(): string | undefined {
  return sessionStorage.getItem(REASON_KEY) ?? undefined;
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
