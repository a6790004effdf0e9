/**
 * Wraps an expensive question so it is asked at most once per `ttlMs`:
 * callers within that time (and callers while it is being asked) share one
 * answer. A failure is not kept: the next caller asks again.
 */
export function singleFlightCache<T>(ask: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (last !== undefined && now() - last.at < ttlMs) return last.value;
    const value = ask();
    const entry = { at: now(), value };
    last = entry;
    value.catch(() => {
      if (last === entry) last = undefined;
    });
    return value;
  };
}
