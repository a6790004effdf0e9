/**
 * Fixed cases the store tests share (store-count, element-page and the
 * MongoDB adapter's run on mongo-java-server): the documents, the questions
 * and the answers computed in memory, so every adapter is asked the same.
 */

/** 1,500 items: 1,200 of project `mine` (every third inactive), 300 of `theirs`. */
export interface CountItem {
  _id: string;
  project_id: string;
  status: string;
}
export const COUNT_ITEMS: readonly CountItem[] = Array.from({ length: 1_500 }, (_, n) => ({ _id: `item-${n}`, project_id: n < 1_200 ? 'mine' : 'theirs', status: n % 3 === 0 ? 'inactive' : 'active' }));

/** Filters over COUNT_ITEMS and how many each matches. */
export const COUNT_CASES: ReadonlyArray<[Record<string, string>, number]> = [
  [{ project_id: 'mine' }, 1_200],
  [{ project_id: 'mine', status: 'active' }, 800],
  [{ project_id: 'theirs' }, 300],
  [{ project_id: 'nobody' }, 0],
  [{}, 1_500],
];

export interface ElementBatch {
  _id: string;
  project_id: string;
  reported_at: string;
  devices: Array<{ device_id: string; outcome: string }>;
}

/** 40 batches, a minute apart; device `dev`'s own line alternates delivered/failed (absent in every third), another device's line is always the other outcome. */
export const ELEMENT_BATCHES: readonly ElementBatch[] = Array.from({ length: 40 }, (_, n) => ({
  _id: `batch-${String(n).padStart(2, '0')}`,
  project_id: n < 36 ? 'mine' : 'theirs',
  reported_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
  devices: [
    { device_id: 'other', outcome: n % 2 === 0 ? 'failed' : 'delivered' },
    ...(n % 3 === 2 ? [] : [{ device_id: 'dev', outcome: n % 2 === 0 ? 'delivered' : 'failed' }]),
  ],
}));

/** (outcome, skip, limit) of the element pages asked. */
export const ELEMENT_PAGE_CASES: ReadonlyArray<[string, number, number]> = [
  ['delivered', 0, 5],
  ['delivered', 5, 5],
  ['failed', 0, 100],
  ['failed', 10, 3],
  ['opened', 0, 5],
];

/** The page of `dev`'s batches of project `mine` whose own line has `outcome`, newest first, with their count (pure). */
export function expectedElementPage(outcome: string, skip: number, limit: number): { count: number; ids: string[] } {
  const kept = ELEMENT_BATCHES.filter((batch) => batch.project_id === 'mine' && batch.devices.some((line) => line.device_id === 'dev' && line.outcome === outcome)).sort((a, b) =>
    b.reported_at.localeCompare(a.reported_at),
  );
  return { count: kept.length, ids: kept.slice(skip, skip + limit).map((batch) => batch._id) };
}
