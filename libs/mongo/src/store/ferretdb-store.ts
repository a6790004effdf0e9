import type { Document } from 'mongodb';
import type { StoreAdapter } from './store-contract.ts';
import { replacements } from './replacements.ts';

/**
 * The indexes the local FerretDB creates, by logical collection: those its
 * SQL pushdown reads through (Herald's patch 4, infra/README.md). There a
 * non-unique index of top-level fields becomes a SQLite index on
 * "all keys are plain strings" then each key's string value: equality on
 * its leading keys is an index seek, and a page sorted by the keys that
 * follow (ending with `_id`) is read in index order, proved exact by one
 * more seek. Every index costs each insert some JSON work (three device
 * indexes took inserts from 5,500/s to 3,100/s), so only these are made:
 *
 * - devices: the device list, in all and by status (`{project_id[, status]}`
 *   by `{created_at, _id}`), and `{project_id, token}` (registration,
 *   `GET /devices?token=`, opens).
 * - notifications: the notification list, newest first, in all and by status.
 * - topics: the topic list.
 * - delivery_ledger: a notification's batches (`{notification_id, project_id}`).
 * - *_counts: the counters of a project (`{project_id, key}`).
 * - api_keys: a project's keys; delivery_schedules: pending schedules.
 *
 * Indexes on arrays (topics, identifier_values) or subdocuments
 * (devices.device_id) are left out: SQLite has no multikey index, so they
 * would only cost writes. The queries they serve on MongoDB read more rows here.
 */
export const FERRETDB_INDEXES: Readonly<Record<string, readonly string[]>> = {
  devices: ['by_project_created', 'by_project_status_created', 'by_project_token'],
  notifications: ['by_project_newest', 'by_project_status_newest'],
  topics: ['by_project_created'],
  delivery_ledger: ['by_notification_batch_v2'],
  devices_counts: ['by_project_key'],
  notifications_counts: ['by_project_key'],
  notification_reports_counts: ['by_project_key'],
  api_keys: ['by_project_created'],
  delivery_schedules: ['by_state_due_key'],
};

/**
 * FerretDB 1.24 hangs on an `update` command of 100 or more updates that
 * match existing documents: replace in slices well below that.
 */
const REPLACE_SLICE = 50;

export const ferretdbStore: StoreAdapter = {
  flavour: 'ferretdb',
  indexesFor: (logical, declared) => declared.filter((index) => index.name !== undefined && (FERRETDB_INDEXES[logical] ?? []).includes(index.name)),
  /**
   * Counted by a `$count` stage rather than the driver's `countDocuments`,
   * which runs a `$group`: FerretDB 1.x's `$group` holds every document it
   * groups in memory until the input ends (counting 1M devices took the store
   * past 6 GB, and any API key could ask for that with a device listing),
   * while its `$count` counts as the documents stream by.
   */
  count: async (collection, filter, options = {}) => {
    const pipeline: Document[] = [{ $match: filter }];
    if (options.limit !== undefined) pipeline.push({ $limit: options.limit });
    pipeline.push({ $count: 'n' });
    const [row] = await collection.aggregate<{ n: number }>(pipeline).toArray();
    return row?.n ?? 0;
  },
  /**
   * `$elemMatch` over subdocuments matches nothing on FerretDB 1.24, so the
   * documents `filter` matches are read (in order) and their elements
   * compared here. `filter` should narrow them to a few (one device's
   * batches: `{'devices.device_id': id}` is evaluated by the store).
   */
  pageWithElement: async (collection, { filter, field, element, sort, skip, limit }) => {
    const all = await collection.find(filter).sort(sort).toArray();
    const wanted = Object.entries(element);
    const holds = (doc: Document) => {
      const items: unknown = doc[field];
      return Array.isArray(items) && items.some((item: Record<string, unknown>) => wanted.every(([key, value]) => item?.[key] === value));
    };
    const kept = all.filter(holds);
    return { count: kept.length, docs: kept.slice(skip, skip + limit) as never[] };
  },
  replaceAll: async (collection, docs) => {
    for (let start = 0; start < docs.length; start += REPLACE_SLICE) await collection.bulkWrite(replacements(docs.slice(start, start + REPLACE_SLICE)), { ordered: false });
  },
};
