import type { Static } from 'typebox';
import { createEvent, topicIdFor } from '@herald/events';
import { countMatching, type ReadModelRegistry } from '@herald/mongo';
import { readCounts, topicCountKey, type CounterDocument, type TopicDocument } from '@herald/projections';
import type { EventProducer } from '@herald/kafka';
import { assertRoomForTopics } from './topic-quota.ts';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import type { Topic } from '../schemas/topics.ts';

type TopicView = Static<typeof Topic>;

export class TopicService {
  readonly #producer: EventProducer;
  readonly #readModels: ReadModelRegistry;

  constructor(deps: { producer: EventProducer; readModels: ReadModelRegistry }) {
    this.#producer = deps.producer;
    this.#readModels = deps.readModels;
  }

  async list(projectId: string, query: { limit?: number | undefined; page?: number | undefined }): Promise<{ data: TopicView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    const topics = await this.#readModels.collection<TopicDocument>('topics');
    const [count, docs] = await Promise.all([
      countMatching(topics, { project_id: projectId }),
      topics.find({ project_id: projectId }).sort({ created_at: 1, _id: 1 }).skip(request.skip).limit(request.limit).toArray(),
    ]);
    const subscribers = await this.#subscriberCounts(projectId, docs.map((doc) => doc._id));
    return {
      data: docs.map((doc) => ({ id: doc._id, name: doc.name, subscribers: subscribers.get(doc._id) ?? 0, created_at: doc.created_at })),
      pagination: pagination(request, count, docs.length),
    };
  }

  /**
   * Active subscribers of each topic, from the counters the devices
   * projection keeps (one counter document per topic and device-events
   * partition, summed here: libs/projections device-counts.ts).
   */
  async #subscriberCounts(projectId: string, topicIds: readonly string[]): Promise<Map<string, number>> {
    const counters = await this.#readModels.countsCollection<CounterDocument>('devices');
    const counts = await readCounts(counters, projectId, topicIds.map(topicCountKey));
    return new Map(topicIds.map((id) => [id, Math.max(0, counts.get(topicCountKey(id))?.active ?? 0)]));
  }

  /** Idempotent: the id is derived from the name, and the projection keeps the first creation. */
  async create(projectId: string, name: string, correlationId?: string): Promise<TopicView> {
    const id = topicIdFor(projectId, name);
    const topics = await this.#readModels.collection<TopicDocument>('topics');
    const existing = await topics.findOne({ _id: id, project_id: projectId });
    if (existing === null) {
      await assertRoomForTopics(topics, projectId, [id]);
      await this.#producer.publish([createEvent('TopicCreated', { topic_id: id, name }, { project_id: projectId, correlation_id: correlationId })]);
    }
    const subscribers = existing === null ? 0 : ((await this.#subscriberCounts(projectId, [id])).get(id) ?? 0);
    return { id, name, subscribers, created_at: existing?.created_at ?? new Date().toISOString() };
  }
}
