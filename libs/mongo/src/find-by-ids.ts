import type { Collection, Document } from 'mongodb';

/** Lookups in flight at once: enough to overlap round trips without crowding the pool other work shares. */
const LOOKUP_LANES = 2;

/**
 * The documents with these `_id`s (those that exist), by one `_id`-equality
 * lookup each. Written when FerretDB scanned the collection for `{_id: {$in:
 * [...]}}`; Herald's build now answers `$in` from the `_id` index too
 * (infra/README.md, patch 4), and the projector reads by one `$in`
 * (libs/projections readByIds). Kept for the send path's callers.
 */
export async function findByIds<T extends Document>(collection: Collection<T>, ids: readonly string[], projection?: Document): Promise<T[]> {
  const found: T[] = [];
  await Promise.all(
    Array.from({ length: Math.min(LOOKUP_LANES, ids.length) }, async (_, lane) => {
      for (let index = lane; index < ids.length; index += LOOKUP_LANES) {
        const doc = await collection.findOne({ _id: ids[index] } as never, projection === undefined ? {} : { projection });
        if (doc !== null) found.push(doc as T);
      }
    }),
  );
  return found;
}
