import { isLookupAudience, matchesAudience } from '@herald/audience';
import { findByIds } from '@herald/mongo';
import { topicMembersId } from '@herald/projections';
import type { Logger } from '@herald/log';
import type { AudienceRow } from './batcher.ts';
import type { AudienceSource, PageRequest } from './audience-source.ts';

const DEVICE_FIELDS = { _id: 1, project_id: 1, status: 1, topics: 1, token: 1, platform: 1, metadata: 1, external_id: 1, timezone: 1 } as const;

export interface SmallAudienceOptions {
  /** Partitions of `herald.device-events`: each keeps its own member list per topic. */
  deviceEventPartitions(): Promise<number>;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Workaround for FerretDB 1.x, in front of the storage-order scan: there a
 * query for a topic decodes every device of the project, so a 10-device send
 * in a project of a million waited a minute or more, and cost the store that
 * much work each time. FerretDB does answer `{_id: value}` from its index. So
 * when the audience is small topics (every member list still short) and
 * device ids, the candidates are read by `_id` (the topics' lists, then
 * each device) and checked one by one (`matchesAudience`). Anything else
 * goes to the scan: metadata or user targets, a topic that overflowed its
 * list, a string that names no device by id (it may be a token), or more
 * candidates than one page. Only a first page is answered here, and only a
 * whole one, so a fan-out never mixes this order with the scan's.
 */
export class SmallAudienceSource implements AudienceSource {
  readonly #scan: AudienceSource;
  readonly #options: SmallAudienceOptions;
  /** Audiences answered by lookups, for logs and tests. */
  lookedUp = 0;

  constructor(scan: AudienceSource, options: SmallAudienceOptions) {
    this.#scan = scan;
    this.#options = options;
  }

  async page(request: PageRequest): Promise<AudienceRow[]> {
    if (request.after === undefined && isLookupAudience(request.audience)) {
      const rows = await this.#lookUp(request);
      if (rows !== undefined) {
        this.lookedUp += 1;
        return rows;
      }
    }
    return this.#scan.page(request);
  }

  close(): Promise<void> {
    return this.#scan.close();
  }

  /** The whole audience when it is small, undefined when only the scan can tell. */
  async #lookUp({ devices, topicMembers, audience, zones, limit }: PageRequest): Promise<AudienceRow[] | undefined> {
    if (topicMembers === undefined) return undefined;
    let partitions: number;
    try {
      partitions = await this.#options.deviceEventPartitions();
    } catch (error) {
      this.#options.logger?.warn({ err: error }, 'device-events partitions unknown; scanning for the audience');
      return undefined;
    }
    const listIds = audience.topicIds.flatMap((topicId) => Array.from({ length: partitions }, (_, partition) => topicMembersId(topicId, partition)));
    const lists = await findByIds(topicMembers, listIds);
    if (lists.some((list) => list.overflowed)) return undefined;
    const candidates = new Set([...lists.flatMap((list) => list.device_ids), ...audience.deviceRefs]);
    if (candidates.size >= limit) return undefined;
    // Typed as whole devices; DEVICE_FIELDS holds every field matchesAudience and the rows read.
    const found = await findByIds(devices, [...candidates], DEVICE_FIELDS);
    // A target string that is no device id may be a token, found only by the scan.
    if (!audience.deviceRefs.every((ref) => found.some((device) => device._id === ref))) return undefined;
    return found
      .filter((device) => matchesAudience(device, audience, zones))
      .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
      .map(({ _id, token, platform }) => ({ _id, token, platform }));
  }
}
