/**
 * Read models trail the log: a notification accepted a moment ago may not
 * be in its read model yet (the notifications projection fetches in bulk,
 * up to 1 s, and falls further behind under load). Its id, a UUID v7,
 * says when it was minted, so a lookup that misses can tell "not there yet"
 * from "no such notification" without reading the log.
 */

/** How recently minted an id must be for a miss to be looked up again. */
export const JUST_SENT_MS = 10_000;
/** How long a lookup of a just-minted id keeps looking, and how often. */
export const JUST_SENT_WAIT_MS = 2_000;
export const JUST_SENT_POLL_MS = 100;

const UUID_V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** When a UUID v7 was minted (its first 48 bits, Unix milliseconds); undefined for any other string. */
export function uuidV7Time(id: string): number | undefined {
  const match = UUID_V7.exec(id);
  return match === null ? undefined : Number.parseInt(`${match[1]}${match[2]}`, 16);
}

/** Whether the id was minted within `JUST_SENT_MS` before `now` (a little clock skew ahead allowed). */
export function justMinted(id: string, now: number): boolean {
  const minted = uuidV7Time(id);
  return minted !== undefined && minted <= now + 1_000 && now - minted <= JUST_SENT_MS;
}

/**
 * Looks a document up; when it is missing and its id was just minted, looks
 * again every `JUST_SENT_POLL_MS` for up to `JUST_SENT_WAIT_MS`. Any other
 * miss answers at once. A stranger's made-up recent id costs at most
 * JUST_SENT_WAIT_MS / JUST_SENT_POLL_MS indexed lookups, within the rate limits.
 */
export async function findJustSent<T>(id: string, lookup: () => Promise<T | null>, time: { now: () => number; sleep: (ms: number) => Promise<void> }): Promise<T | null> {
  const found = await lookup();
  if (found !== null || !justMinted(id, time.now())) return found;
  const until = time.now() + JUST_SENT_WAIT_MS;
  while (time.now() < until) {
    await time.sleep(JUST_SENT_POLL_MS);
    const again = await lookup();
    if (again !== null) return again;
  }
  return null;
}
