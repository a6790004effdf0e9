import type { Static } from 'typebox';
import { createEvent, topicIdFor } from '@herald/events';
import { TopicQueries, type ReadModelRegistry } from '@herald/mongo';
import { type TopicDocument, topicOrigin } from '@herald/read-models';
import type { EventProducer } from '@herald/kafka';
import { topicNameProblem } from '@herald/audience';
import { NotFoundError, UnprocessableError } from '@herald/errors';
import { assertRoomForTopics } from './topic-quota.ts';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import type { Topic } from '../schemas/topics.ts';

type TopicView = Static<typeof Topic>;

const view = (doc: TopicDocument, subscribers: number): TopicView => ({ id: doc._id, name: doc.name, subscribers, origin: topicOrigin(doc), created_at: doc.created_at });

/** Topics are the project's: it creates, lists, reads and deletes them with its key (devices only where it lets them). */
export class TopicService {
  readonly #producer: EventProducer;
  readonly #topics: TopicQueries;

  constructor(deps: { producer: EventProducer; readModels: ReadModelRegistry }) {
    this.#producer = deps.producer;
    this.#topics = new TopicQueries(deps.readModels);
  }

  async list(projectId: string, query: { limit?: number | undefined; page?: number | undefined; name?: string | undefined }): Promise<{ data: TopicView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    // By name: the id is derived from it, so the lookup is by `_id` (cheap on every store).
    const topicId = query.name === undefined ? undefined : topicIdFor(projectId, query.name);
    const [count, docs] = await Promise.all([this.#topics.countTopics(projectId, topicId), this.#topics.topicPage(projectId, request, topicId)]);
    const subscribers = await this.#subscriberCounts(projectId, docs.map((doc) => doc._id));
    return { data: docs.map((doc) => view(doc, subscribers.get(doc._id) ?? 0)), pagination: pagination(request, count, docs.length) };
  }

  async get(projectId: string, id: string): Promise<TopicView> {
    const doc = await this.#find(projectId, id);
    return view(doc, (await this.#subscriberCounts(projectId, [id])).get(id) ?? 0);
  }

  async #find(projectId: string, id: string): Promise<TopicDocument> {
    const doc = await this.#topics.topic(projectId, id);
    if (doc === null) throw new NotFoundError(`topic ${id} does not exist in project ${projectId}`);
    return doc;
  }

  /** Active subscribers of each topic, from the counters the devices projection keeps. */
  #subscriberCounts(projectId: string, topicIds: readonly string[]): Promise<Map<string, number>> {
    return this.#topics.subscriberCounts(projectId, topicIds);
  }

  /**
   * Idempotent: the id is derived from the name, and the projection keeps
   * the first creation. Creating a device-created topic makes it the
   * project's (no longer reclaimable, counted under the project's quota).
   * A name of an id's or a token's form is refused (422): a plain target
   * string of that form names a device, never a topic.
   */
  async create(projectId: string, name: string, correlationId?: string): Promise<TopicView> {
    const problem = topicNameProblem('name', name);
    if (problem !== undefined) throw new UnprocessableError([problem]);
    const id = topicIdFor(projectId, name);
    const existing = await this.#topics.topic(projectId, id);
    const context = { project_id: projectId, correlation_id: correlationId };
    if (existing === null || topicOrigin(existing) !== 'project') {
      await assertRoomForTopics(this.#topics, projectId, 'project', 1);
      await this.#producer.publish([createEvent('TopicCreated', { topic_id: id, name, origin: 'project' }, context)]);
    }
    if (existing === null) return { id, name, subscribers: 0, origin: 'project', created_at: new Date().toISOString() };
    return { ...view(existing, (await this.#subscriberCounts(projectId, [id])).get(id) ?? 0), origin: 'project' };
  }

  /** Publishes TopicDeleted; 404 when the project has no such topic (deleting twice is 404 once the first is read). */
  async delete(projectId: string, id: string, correlationId?: string): Promise<void> {
    const doc = await this.#find(projectId, id);
    await this.#producer.publish([createEvent('TopicDeleted', { topic_id: id, name: doc.name }, { project_id: projectId, correlation_id: correlationId })]);
  }

  /** Deletes the device-created topics no active device subscribes to; the project's own are never touched. */
  async reclaim(projectId: string, correlationId?: string): Promise<{ deleted: number; names: string[] }> {
    const deviceCreated = await this.#topics.deviceCreatedTopics(projectId);
    const subscribers = await this.#subscriberCounts(projectId, deviceCreated.map((topic) => topic._id));
    const unused = deviceCreated.filter((topic) => (subscribers.get(topic._id) ?? 0) === 0);
    const context = { project_id: projectId, correlation_id: correlationId };
    if (unused.length > 0) await this.#producer.publish(unused.map((topic) => createEvent('TopicDeleted', { topic_id: topic._id, name: topic.name }, context)));
    return { deleted: unused.length, names: unused.map((topic) => topic.name) };
  }
}
