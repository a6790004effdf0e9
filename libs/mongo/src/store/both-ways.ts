import { Long, type Collection, type Db, type Document } from 'mongodb';

// The differential tests' harness (pushdown-random.int.test.ts, libs/projections local-store-shapes.int.test.ts):
// store-adapter code, so it speaks the driver; tests import it as `@herald/mongo/differential`.

/**
 * Runs a query with Herald's pushdown (infra/README.md, patch 4) and without
 * it, on the same data: a command whose comment holds this marker runs as
 * upstream FerretDB runs it. On MongoDB both runs are MongoDB's own.
 */
export const PUSHDOWN_OFF = 'herald:pushdown-off';

export interface FindShape {
  filter: Document;
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
  projection?: Document;
}

/** The documents a find returns, in order, with the pushdown and without. */
export async function findBothWays(collection: Collection<Document>, shape: FindShape): Promise<{ on: Document[]; off: Document[] }> {
  const run = (comment?: string) =>
    collection
      .find(shape.filter, {
        ...(shape.sort === undefined ? {} : { sort: shape.sort }),
        ...(shape.skip === undefined ? {} : { skip: shape.skip }),
        ...(shape.limit === undefined ? {} : { limit: shape.limit }),
        ...(shape.projection === undefined ? {} : { projection: shape.projection }),
        ...(comment === undefined ? {} : { comment }),
      })
      .toArray();
  return { on: await run(), off: await run(PUSHDOWN_OFF) };
}

/** `[$match, $limit?, $count]` (the FerretDB adapter's count, libs/mongo store/ferretdb-store.ts), with the pushdown and without. */
export async function countBothWays(collection: Collection<Document>, filter: Document, limit?: number): Promise<{ on: number; off: number }> {
  const pipeline: Document[] = [{ $match: filter }, ...(limit === undefined ? [] : [{ $limit: limit }]), { $count: 'n' }];
  const run = async (comment?: string) => {
    const [row] = await collection.aggregate<{ n: number }>(pipeline, comment === undefined ? {} : { comment }).toArray();
    return row?.n ?? 0;
  };
  return { on: await run(), off: await run(PUSHDOWN_OFF) };
}

/** What Herald's FerretDB reports of its plan (undefined on MongoDB, or when the pushdown had nothing to add). */
export interface HeraldExplain {
  paged: boolean;
  counted: boolean;
  guardHit?: boolean;
  /** SQLite's EXPLAIN QUERY PLAN of the statement the query runs. */
  plan: string[];
}

/** Explains a find, or with `count`, a `[$match, $limit?, $count]`; `off` explains it run without the pushdown. */
export async function explainHerald(
  db: Db,
  collection: string,
  shape: FindShape & { count?: boolean },
  off = false,
): Promise<HeraldExplain | undefined> {
  const comment = off ? { comment: PUSHDOWN_OFF } : {};
  const command = shape.count
    ? {
        aggregate: collection,
        pipeline: [{ $match: shape.filter }, ...(shape.limit === undefined ? [] : [{ $limit: shape.limit }]), { $count: 'n' }],
        cursor: {},
        ...comment,
      }
    : {
        find: collection,
        filter: shape.filter,
        ...(shape.sort === undefined ? {} : { sort: shape.sort }),
        // FerretDB's explain wants 64-bit integers here.
        ...(shape.skip === undefined ? {} : { skip: Long.fromNumber(shape.skip) }),
        ...(shape.limit === undefined ? {} : { limit: Long.fromNumber(shape.limit) }),
        ...comment,
      };
  const explained = await db.command({ explain: command });
  const herald = (explained.queryPlanner as { Herald?: HeraldExplain } | undefined)?.Herald;
  return herald;
}
