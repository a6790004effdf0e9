import { ObjectId, type Document } from 'mongodb';

/**
 * Random documents and queries mixing what a SQL pushdown gets wrong most
 * easily (the differential test, pushdown-random.int.test.ts): strings with
 * spaces, punctuation, NUL and non-ASCII (SQL orders `"a b"` before `"a"` in
 * JSON text), 24-hex strings beside ObjectIds with the same hex, numbers,
 * dates, null and missing fields, arrays (which match a scalar they hold),
 * subdocuments reached by dotted paths. Seeded: a failure names its seed.
 */

/** mulberry32: a small seeded generator, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (random: Random, p: number) => random() < p;

const HEX = '0123456789abcdef';
const hexOf = (random: Random) => Array.from({ length: 24 }, () => pick(random, [...HEX])).join('');

/** Strings that sort differently as JSON text than as strings, and look-alikes. */
export const HAZARD_STRINGS = ['a', 'a b', 'a!', 'a"b', 'a\\b', 'A', 'b', 'ab', '', ' ', 'é', 'z\u0000z', 'p1', 'p 1', 'p-1', 'active', 'inactive', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00Z', '9', '10'] as const;

/** A handful of 24-hex values used both as strings and as ObjectIds. */
export function hexPool(random: Random, size = 4): string[] {
  return Array.from({ length: size }, () => hexOf(random));
}

/** A value for a field: mostly strings from a small pool (so filters match), sometimes every other kind. */
export function randomValue(random: Random, strings: readonly string[], hexes: readonly string[]): unknown {
  const roll = random();
  if (roll < 0.55) return pick(random, strings);
  if (roll < 0.62) return pick(random, hexes);
  if (roll < 0.67) return new ObjectId(pick(random, hexes));
  if (roll < 0.72) return pick(random, [0, 1, 9, 10, -1, 2.5]);
  if (roll < 0.76) return new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 4) * 1000);
  if (roll < 0.8) return null;
  // FerretDB 1.24 stores no nested arrays: an array's elements are anything else.
  if (roll < 0.9) return Array.from({ length: Math.floor(random() * 3) }, () => scalarValue(random, strings, hexes));
  return { lang: pick(random, strings), n: pick(random, [1, 2]) };
}

function scalarValue(random: Random, strings: readonly string[], hexes: readonly string[]): unknown {
  const value = randomValue(random, strings, hexes);
  return Array.isArray(value) ? pick(random, strings) : value;
}

export const FIELDS = ['project_id', 'status', 'token', 'created_at'] as const;

/**
 * `count` documents: `_id` a unique string (some 24-hex), ObjectId or number;
 * each field in FIELDS mostly a string, else anything (or missing); `meta` a
 * subdocument for dotted filters.
 */
export function randomDocuments(random: Random, count: number, hexes: readonly string[]): Document[] {
  const docs: Document[] = [];
  const usedHex = new Set<string>();
  for (let n = 0; n < count; n += 1) {
    const roll = random();
    let id: unknown;
    if (roll < 0.1) {
      // FerretDB's _id index holds JSON text, where an ObjectId and the string of its hex collide: one or the other.
      const hex = hexOf(random);
      usedHex.add(hex);
      id = chance(random, 0.5) ? new ObjectId(hex) : hex;
    } else if (roll < 0.13) id = n;
    else id = `${pick(random, HAZARD_STRINGS)}#${n}`;
    const doc: Document = { _id: id };
    for (const field of FIELDS) {
      if (chance(random, 0.08)) continue; // missing
      doc[field] = chance(random, 0.75) ? pick(random, HAZARD_STRINGS) : randomValue(random, HAZARD_STRINGS, hexes);
    }
    if (chance(random, 0.5)) doc.meta = { lang: pick(random, ['en', 'fr', 'a b']), tags: chance(random, 0.5) ? ['x', 'y'] : 'x' };
    docs.push(doc);
  }
  return docs;
}

/**
 * Half the time, an ObjectId `_id` as the string of its hex (or a 24-hex
 * string as the ObjectId): alike in FerretDB's `_id` index, never equal
 * for MongoDB. Otherwise the id itself.
 */
function twinOrSelf(random: Random, id: unknown): unknown {
  if (!chance(random, 0.5)) return id;
  if (id instanceof ObjectId) return id.toHexString();
  return typeof id === 'string' && /^[0-9a-f]{24}$/.test(id) ? new ObjectId(id) : id;
}

/** A filter Herald issues or might: string equalities (plain, $eq, $in), `_id` equality, $in and ranges, plus keys SQL leaves to FerretDB. */
export function randomFilter(random: Random, hexes: readonly string[], ids: readonly unknown[]): Document {
  const filter: Document = {};
  const terms = 1 + Math.floor(random() * 3);
  for (let n = 0; n < terms; n += 1) {
    const roll = random();
    const field = pick(random, FIELDS);
    const value = chance(random, 0.85) ? pick(random, HAZARD_STRINGS) : pick(random, hexes);
    if (roll < 0.45) filter[field] = value;
    else if (roll < 0.52) filter[field] = { $eq: value };
    else if (roll < 0.6) filter[field] = { $in: [value, pick(random, HAZARD_STRINGS)] };
    else if (roll < 0.66) filter._id = twinOrSelf(random, pick(random, ids));
    else if (roll < 0.72) filter._id = { $in: [twinOrSelf(random, pick(random, ids)), pick(random, ids), `missing-${n}`] };
    else if (roll < 0.8) filter._id = { [pick(random, ['$gt', '$gte', '$lt', '$lte'])]: pick(random, HAZARD_STRINGS) };
    else if (roll < 0.84) filter._id = { $gte: pick(random, HAZARD_STRINGS), $lt: pick(random, HAZARD_STRINGS) };
    else if (roll < 0.88) filter['meta.lang'] = pick(random, ['en', 'fr', 'a b']);
    else if (roll < 0.91) filter[field] = pick(random, [null, 9, new ObjectId(pick(random, hexes))]);
    else if (roll < 0.94) filter[field] = { $exists: chance(random, 0.5) };
    else if (roll < 0.97) filter.$or = [{ [field]: value }, { _id: pick(random, ids) }];
    // else: nothing more (an empty filter sometimes)
  }
  return filter;
}

/** A sort ending with `_id` (a total order: MongoDB leaves ties in no defined order), or none. */
export function randomSort(random: Random): Record<string, 1 | -1> | undefined {
  if (chance(random, 0.15)) return undefined;
  const sort: Record<string, 1 | -1> = {};
  const keys = Math.floor(random() * 3);
  for (let n = 0; n < keys; n += 1) sort[pick(random, FIELDS)] = pick(random, [1, -1] as const);
  sort._id = pick(random, [1, -1] as const);
  return sort;
}
