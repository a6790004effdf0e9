import type { Filter } from 'mongodb';
import type { StoreFilter } from '../store-filter.ts';
import { LIVE_TOPIC, topicCountKey, type CounterDocument, type TopicDocument } from '@herald/read-models';
import type { TopicOrigin } from '@herald/events';
import type { ReadModelRegistry } from '../read-models.ts';
import { readCounts } from './counters.ts';
import type { PageWindow } from './devices.ts';

/** The project's own topics, and the ones devices created (documents from before origins count as device-created). */
const ORIGIN_FILTER: Record<TopicOrigin, Filter<TopicDocument>> = { project: { origin: 'project' }, device: { origin: { $ne: 'project' } } };

/** The questions the API asks of the `topics` read model (its indexes: libs/read-models topics.ts). */
export class TopicQueries {
  readonly #readModels: ReadModelRegistry;

  constructor(readModels: ReadModelRegistry) {
    this.#readModels = readModels;
  }

  #topics() {
    return this.#readModels.collection<TopicDocument>('topics');
  }

  /** The project's live topic with this id, or null. */
  async topic(projectId: string, topicId: string): Promise<TopicDocument | null> {
    return (await this.#topics()).findOne({ _id: topicId, project_id: projectId, ...LIVE_TOPIC });
  }

  /** True when the project has a live topic with this id. */
  async topicExists(projectId: string, topicId: string): Promise<boolean> {
    return (await (await this.#topics()).findOne({ _id: topicId, project_id: projectId, ...LIVE_TOPIC }, { projection: { _id: 1 } })) !== null;
  }

  /** A page of the project's live topics, oldest first (only `topicId`, when given: a lookup by name is one by its derived id). */
  async topicPage(projectId: string, page: PageWindow, topicId?: string): Promise<TopicDocument[]> {
    return (await this.#topics()).find(liveFilter(projectId, topicId)).sort({ created_at: 1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  }

  /** How many live topics the project has (only `topicId`, when given). */
  async countTopics(projectId: string, topicId?: string): Promise<number> {
    const [topics, store] = await Promise.all([this.#topics(), this.#readModels.store()]);
    return store.count(topics, liveFilter(projectId, topicId));
  }

  /** How many live topics of an origin the project has, counted up to `limit`. */
  async countTopicsOf(projectId: string, origin: TopicOrigin, limit: number): Promise<number> {
    const [topics, store] = await Promise.all([this.#topics(), this.#readModels.store()]);
    return store.count(topics, { project_id: projectId, ...LIVE_TOPIC, ...ORIGIN_FILTER[origin] }, { limit });
  }

  /** The live topics a topic filter (libs/audience `liveTopicsFilter`) matches: ids, projects and names. */
  async topicsMatching(filter: StoreFilter<TopicDocument>): Promise<Array<Pick<TopicDocument, '_id' | 'project_id' | 'name'>>> {
    return (await this.#topics()).find(filter as Filter<TopicDocument>).project<Pick<TopicDocument, '_id' | 'project_id' | 'name'>>({ _id: 1, project_id: 1, name: 1 }).toArray();
  }

  /** The names of the project's topics with these ids (deleted ones included), by id. */
  async topicNames(projectId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const found = await (await this.#topics()).find({ _id: { $in: [...ids] }, project_id: projectId }, { projection: { name: 1 } }).toArray();
    return new Map(found.map((topic) => [topic._id, topic.name]));
  }

  /** The project's live topics devices created, ids and names. */
  async deviceCreatedTopics(projectId: string): Promise<Array<Pick<TopicDocument, '_id' | 'name'>>> {
    return (await this.#topics())
      .find({ project_id: projectId, ...LIVE_TOPIC, ...ORIGIN_FILTER.device })
      .project<Pick<TopicDocument, '_id' | 'name'>>({ _id: 1, name: 1 })
      .toArray();
  }

  /** Active subscribers of each topic, from the counters the devices projection keeps (libs/read-models device-counts.ts). */
  async subscriberCounts(projectId: string, topicIds: readonly string[]): Promise<Map<string, number>> {
    const counters = await this.#readModels.countsCollection<CounterDocument>('devices');
    const counts = await readCounts(counters, projectId, topicIds.map(topicCountKey));
    return new Map(topicIds.map((id) => [id, Math.max(0, counts.get(topicCountKey(id))?.active ?? 0)]));
  }
}

function liveFilter(projectId: string, topicId: string | undefined): Filter<TopicDocument> {
  return { project_id: projectId, ...LIVE_TOPIC, ...(topicId === undefined ? {} : { _id: topicId }) };
}
