import { LRUCache } from 'lru-cache';
import { TOPICS, type NotificationRequestedV2 } from '@herald/events';
import { evolveNotification, type NotificationDocument } from '@herald/read-models';
import type { Clock } from '@herald/runtime';

/**
 * Read models trail the log: a notification accepted a moment ago may not
 * be in its read model yet (the notifications projection fetches in bulk,
 * up to 1 s, holds a notification about to be sent up to 3 s more under
 * load, and falls further behind under load). The API instance that
 * accepted it remembers it (`AcceptedHere`) and answers from that at once;
 * any other instance has its id, a UUID v7, which says when it was minted,
 * so a lookup that misses can tell "not there yet" from "no such
 * notification" without reading the log.
 */

/** How recently minted an id must be for a miss to be looked up again. */
export const JUST_SENT_MS = 10_000;
/** How long a lookup of a just-minted id keeps looking, and how often. */
/** Under the request deadline (REQUEST_DEADLINE_MS, 4.5 s by default): a miss answers 404, not 503. */
export const JUST_SENT_WAIT_MS = 3_500;
export const JUST_SENT_POLL_MS = 250;

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
 * Looks a document up; when it is missing, answers with what `remembered`
 * has of it (what this instance accepted), and otherwise, when its id was
 * just minted, looks again every `JUST_SENT_POLL_MS` for up to
 * `JUST_SENT_WAIT_MS`. Any other miss answers at once. A stranger's made-up
 * recent id costs at most JUST_SENT_WAIT_MS / JUST_SENT_POLL_MS indexed
 * lookups, within the rate limits.
 */
export async function findJustSent<T>(
  id: string,
  lookup: () => Promise<T | null>,
  time: Pick<Clock, 'now' | 'sleep'>,
  remembered: () => T | undefined = () => undefined,
): Promise<T | null> {
  const found = await lookup();
  if (found !== null) return found;
  const here = remembered();
  if (here !== undefined) return here;
  if (!justMinted(id, time.now())) return null;
  const until = time.now() + JUST_SENT_WAIT_MS;
  while (time.now() < until) {
    await time.sleep(JUST_SENT_POLL_MS);
    const again = await lookup();
    if (again !== null) return again;
  }
  return null;
}

/** Notifications remembered by the instance that accepted them: a few seconds of sends at a high rate. */
export const ACCEPTED_HERE_KEPT = 20_000;

/**
 * What this API instance accepted in the last `JUST_SENT_MS`, as the read
 * model will first show it (the projection's own `evolveNotification` of
 * the request), and as this instance changed it since (a cancel, a pause):
 * a read of an id the read model does not have yet is answered from here.
 * A notification of another project is not found here either.
 */
export class AcceptedHere {
  readonly #docs: LRUCache<string, NotificationDocument>;

  constructor(max = ACCEPTED_HERE_KEPT) {
    this.#docs = new LRUCache<string, NotificationDocument>({ max, ttl: JUST_SENT_MS });
  }

  accepted(event: NotificationRequestedV2): void {
    // Its log position is not known here: no record of the log is "already applied" to it.
    const doc = evolveNotification(undefined, { event, topic: TOPICS.notificationEvents, partition: -1, offset: -1 });
    if (doc !== undefined) this.#docs.set(doc._id, doc);
  }

  /** A change this instance answered with (cancelled, steered), for a notification it remembers. */
  changed(doc: NotificationDocument): void {
    if (this.#docs.has(doc._id)) this.#docs.set(doc._id, doc, { noUpdateTTL: true });
  }

  find(projectId: string, id: string): NotificationDocument | undefined {
    const doc = this.#docs.get(id);
    return doc?.project_id === projectId ? doc : undefined;
  }

  /** The notification remembered here that replaced this one (an edit accepted a moment ago), if any. */
  replacementOf(projectId: string, id: string): string | undefined {
    for (const [, doc] of this.#docs.entries()) if (doc.project_id === projectId && doc.replaces === id) return doc._id;
    return undefined;
  }

  /** What this instance remembers of a project (optionally in one status), newest first, as a listing sorts. */
  list(projectId: string, status?: NotificationDocument['status']): NotificationDocument[] {
    const docs: NotificationDocument[] = [];
    for (const [, doc] of this.#docs.entries()) if (doc.project_id === projectId && (status === undefined || doc.status === status)) docs.push(doc);
    return docs.sort((a, b) => (newerFirst(a, b) ? -1 : 1));
  }
}

/** Whether `a` lists before `b`: newest first (`created_at`, then `_id`, both descending), as the listing's sort. */
export function newerFirst(a: Pick<NotificationDocument, 'created_at' | '_id'>, b: Pick<NotificationDocument, 'created_at' | '_id'>): boolean {
  return a.created_at === b.created_at ? a._id > b._id : a.created_at > b.created_at;
}

/**
 * One page of a listing that shows what this instance accepted but the read
 * model does not have yet (`unprojected`, newest first), as a read of each
 * by id would (findJustSent): the store's documents and the unprojected
 * ones merged newest first, positions `skip` to `skip + limit`. The caller
 * reads the store from `windowStart` = max(0, skip - unprojected.length)
 * up to `skip + limit` (`window`, newest first): every store document that
 * can land on the page. An unprojected document older than the window's
 * first document had at most `windowStart` store documents before it, so it
 * falls before the page (pure).
 */
export function mergeUnprojected<T extends Pick<NotificationDocument, 'created_at' | '_id'>>(window: readonly T[], windowStart: number, unprojected: readonly T[], skip: number, limit: number): T[] {
  const placed: Array<{ at: number; doc: T }> = [];
  window.forEach((doc, index) => placed.push({ at: windowStart + index + unprojected.filter((other) => newerFirst(other, doc)).length, doc }));
  unprojected.forEach((doc, index) => {
    if (windowStart > 0 && (window.length === 0 || newerFirst(doc, window[0]!))) return;
    placed.push({ at: windowStart + index + window.filter((other) => newerFirst(other, doc)).length, doc });
  });
  return placed
    .filter(({ at }) => at >= skip && at < skip + limit)
    .sort((a, b) => a.at - b.at)
    .map(({ doc }) => doc);
}
