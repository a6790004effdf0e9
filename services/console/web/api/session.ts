/**
 * The project API key for this browser tab's session: in memory, and in
 * sessionStorage so a reload or a bookmarked screen keeps working. Never in
 * localStorage, a cookie or a URL; gone when the tab closes or on sign-out.
 */
const STORAGE_KEY = 'herald.apiKey';

let current: string | undefined;
const listeners = new Set<() => void>();

export function apiKey(): string | undefined {
  current ??= sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  return current;
}

export function signIn(key: string): void {
  current = key;
  sessionStorage.setItem(STORAGE_KEY, key);
  for (const listener of listeners) listener();
}

export function signOut(): void {
  current = undefined;
  sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
