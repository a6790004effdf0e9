import type { Collection, Document } from 'mongodb';

/** Lookups in flight at once: enough to overlap round trips without crowding the pool other work shares. */
const LOOKUP_LANES = 2;

/**
 * The documents with these `_id`s (those that exist), by one `_id`-equality
 * lookup each. Store workaround: FerretDB 1.x answers only a filter that is
 * exactly `{_id: value}` from its index (Herald's build, infra/README.md),
 * and scans the collection for anything else, `{_id: {$in: [...]}}` included. On MongoDB a few point
 * lookups cost about what an `$in` does.
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
