import { audienceFilter, audiencePage, type Audience, type ZoneFilter } from '@herald/audience';
import type { Collection, Filter, FindCursor } from '@herald/mongo';
import type { DeviceDocument, TopicMembersDocument } from '@herald/projections';
import type { Logger } from '@herald/log';
import type { AudienceRow } from './batcher.ts';

/** What one fan-out step asks for: the next `limit` active audience devices after `after` (the last device of the step before). */
export interface PageRequest {
  /** Names the fan-out (`<notification id>` or `<id>@<slot>`): a source may keep its place per fan-out. */
  fanoutId: string;
  devices: Collection<DeviceDocument>;
  /** Small topics' member lists (read by SmallAudienceSource). */
  topicMembers?: Collection<TopicMembersDocument> | undefined;
  audience: Audience;
  zones?: ZoneFilter | undefined;
  after: string | undefined;
  limit: number;
}

/**
 * Where a fan-out reads its audience, one page per step, in an order that
 * never changes while it runs: "after" names the last device of the step
 * before, and every device before it in that order has been planned.
 */
export interface AudienceSource {
  page(request: PageRequest): Promise<AudienceRow[]>;
  /** Releases whatever it holds open. */
  close(): Promise<void>;
}

const ROW_FIELDS = { _id: 1, token: 1, platform: 1 } as const;

/**
 * MongoDB: each page is a keyset range in `_id` order, which the
 * `{project_id, status, topics, _id}` index serves directly.
 */
export function keysetAudienceSource(): AudienceSource {
  return {
    page: async ({ devices, audience, zones, after, limit }) => {
      const query = audiencePage(audience, after, limit, zones);
      return devices.find(query.filter).project<AudienceRow>(ROW_FIELDS).sort(query.sort).limit(query.limit).toArray();
    },
    close: async () => undefined,
  };
}

/** Rows per getMore: unbounded, FerretDB would scan up to 16 MB of rows before answering. */
const SCAN_BATCH_ROWS = 1_000;

type ScannedRow = AudienceRow & Pick<DeviceDocument, 'status'>;

interface OpenScan {
  cursor: FindCursor<ScannedRow>;
  collection: string;
  /** The last row handed out: the next step asks for the rows after it. */
  last: string | undefined;
  /** Rows to pass over: the audience before `after` when `after` itself left the audience (see `#reopen`). */
  planned?: ReadonlySet<string>;
}

/**
 * Workaround for FerretDB 1.x (SQLite and PostgreSQL backends alike), which
 * pushes down neither `_id > after` nor a sort: there a keyset page reads,
 * decodes and sorts the whole audience, so the first push of a million-device
 * campaign waited minutes and a campaign cost O(N²) row reads. An unsorted
 * find, though, streams in the table's storage order (SQLite's rowid, which
 * an update keeps; new devices come last), so this source keeps one open
 * cursor per fan-out and hands out its next rows at each step: the first
 * page comes back after reading about one page of rows, and every row is
 * read once. A step that finds no cursor in hand (another instance took the
 * partition, this one restarted, or the cursor expired) re-opens the scan
 * and passes over the rows up to `after`.
 */
export class StorageOrderAudienceSource implements AudienceSource {
  readonly #scans = new Map<string, OpenScan>();
  readonly #maxOpen: number;
  readonly #logger: Pick<Logger, 'info' | 'warn'> | undefined;
  /** Scans opened for a fan-out past its first page (each reads the prefix again): for logs and tests. */
  reopened = 0;

  /** `maxOpen`: fan-outs holding a cursor at once; the least recently used one is closed past it (it re-opens if needed). */
  constructor(options: { maxOpen?: number; logger?: Pick<Logger, 'info' | 'warn'> } = {}) {
    this.#maxOpen = options.maxOpen ?? 64;
    this.#logger = options.logger;
  }

  async page(request: PageRequest): Promise<AudienceRow[]> {
    const { fanoutId, devices, after, limit } = request;
    const held = this.#scans.get(fanoutId);
    this.#scans.delete(fanoutId);
    if (held !== undefined && held.last === after && held.collection === devices.collectionName) {
      try {
        return await this.#read(fanoutId, held, limit);
      } catch (error) {
        // The held cursor expired or its connection went away: scan again from the recorded place.
        this.#logger?.warn({ err: error, fanout_id: fanoutId }, 'held audience scan failed; re-opening it');
      }
    } else {
      await held?.cursor.close().catch(() => undefined);
    }
    return this.#read(fanoutId, await this.#reopen(request), limit);
  }

  async #read(fanoutId: string, scan: OpenScan, limit: number): Promise<AudienceRow[]> {
    try {
      const rows: AudienceRow[] = [];
      while (rows.length < limit) {
        const row = await scan.cursor.next();
        if (row === null) break;
        if (row.status !== 'active' || scan.planned?.has(row._id) === true) continue;
        rows.push({ _id: row._id, token: row.token, platform: row.platform });
      }
      if (rows.length < limit) {
        await scan.cursor.close();
        return rows;
      }
      scan.last = rows.at(-1)!._id;
      await this.#keep(fanoutId, scan);
      return rows;
    } catch (error) {
      await scan.cursor.close().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    const scans = [...this.#scans.values()];
    this.#scans.clear();
    await Promise.all(scans.map((scan) => scan.cursor.close().catch(() => undefined)));
  }

  async #keep(fanoutId: string, scan: OpenScan): Promise<void> {
    this.#scans.set(fanoutId, scan);
    while (this.#scans.size > this.#maxOpen) {
      const [oldest, evicted] = this.#scans.entries().next().value as [string, OpenScan];
      this.#scans.delete(oldest);
      await evicted.cursor.close().catch(() => undefined);
    }
  }

  /**
   * A scan positioned just past `after`. Inactive devices stay in the scan
   * (filtered here) so that `after` is still found when it was deactivated
   * since. When it left the audience altogether (unsubscribed, metadata
   * changed), its place is found in a scan of the project's devices, which
   * it never leaves, and the audience devices before it are passed over.
   */
  async #reopen({ fanoutId, devices, audience, zones, after }: PageRequest): Promise<OpenScan> {
    if (after !== undefined) {
      this.reopened += 1;
      this.#logger?.info({ fanout_id: fanoutId }, 'no audience scan in hand for this fan-out (new instance, restart or evicted): re-opening it and seeking past its last device');
    }
    const filter = audienceFilter(audience, { activeOnly: false, zones });
    const open = (query: Filter<DeviceDocument>) => devices.find(query).project<ScannedRow>({ ...ROW_FIELDS, status: 1 }).batchSize(SCAN_BATCH_ROWS);
    const collection = devices.collectionName;
    const cursor = open(filter);
    if (after === undefined) return { cursor, collection, last: undefined };
    for (let row = await cursor.next(); row !== null; row = await cursor.next()) {
      if (row._id === after) return { cursor, collection, last: after };
    }
    await cursor.close();
    const planned = new Set<string>();
    const everyDevice = devices.find({ project_id: audience.projectId }).project<Pick<DeviceDocument, '_id'>>({ _id: 1 }).batchSize(SCAN_BATCH_ROWS * 10);
    try {
      for (let row = await everyDevice.next(); row !== null && row._id !== after; row = await everyDevice.next()) planned.add(row._id);
    } finally {
      await everyDevice.close();
    }
    return { cursor: open(filter), collection, last: after, planned };
  }
}
