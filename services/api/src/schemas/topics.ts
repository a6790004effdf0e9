import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination } from './common.ts';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';

export const Topic = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    subscribers: Type.Integer({ description: 'Active devices subscribed to the topic (an extra beyond the spec)' }),
    origin: Type.Enum(['project', 'device'], {
      description: '`project`: created with the API key; `device`: created by a device registration (only where the project allows it; self-asserted)',
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Topic' },
);

const TopicId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The topic id' }) });

export const listTopicsSchema = {
  summary: 'List topics of the current project',
  description: 'Topics in creation order (then id). A page past the last one is empty. `name` finds one topic by its name (a list of at most one).',
  tags: ['topics'],
  security: BEARER,
  querystring: Type.Object(
    { ...PageQuery, name: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Only the topic with exactly this name' })) },
    { additionalProperties: false },
  ),
  response: { 200: Type.Object({ data: Type.Array(Topic), pagination: Pagination }), ...errorResponses(400, 401) },
} as const;

export const getTopicSchema = {
  summary: 'A topic of the current project',
  description: "404 for an id that is not one of the project's topics (or was deleted).",
  tags: ['topics'],
  security: BEARER,
  params: TopicId,
  response: { 200: Type.Object({ data: Topic }), ...errorResponses(400, 401, 404) },
} as const;

export const createTopicSchema = {
  summary: 'Create a topic (idempotent by name)',
  description:
    'The topic id is derived from (project, name): creating an existing topic returns it again (a device-created one becomes the project\'s). ' +
    'Devices subscribe by naming it when they register. Devices create topics only where the project allows it (herald projects device-topics). ' +
    `A project creates at most ${DEVICE_LIMITS.topicsPerProject} topics; device-created ones are counted apart (at most ${DEVICE_LIMITS.deviceTopicsPerProject}). ` +
    'A name of an id\'s form (a UUID) or a device token\'s form (APNs: 64 to 200 hex digits; FCM: letters, digits, "-", "_" with a ":") is refused with 422: ' +
    'a plain target string of that form always names a device, never a topic.',
  tags: ['topics'],
  security: BEARER,
  body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
  response: { 201: Type.Object({ data: Topic }), ...errorResponses(400, 401, 413, 415, 422, 503) },
} as const;

export const deleteTopicSchema = {
  summary: 'Delete a topic',
  description:
    'Publishes TopicDeleted: the topic is no longer listed and no target resolves to it; registrations naming it are refused unless devices may create topics. ' +
    'Devices keep it in their `topics` until they register again: creating it again (same name, same id) reaches them again. 404 when it does not exist.',
  tags: ['topics'],
  security: BEARER,
  params: TopicId,
  response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 404, 503) },
} as const;

export const reclaimTopicsSchema = {
  summary: 'Delete the device-created topics no active device subscribes to',
  description:
    'Frees room under the device-created topic quota: every device-created topic of the project with no active subscriber is deleted (TopicDeleted). ' +
    "The project's own topics are never touched. Answers how many were deleted, and their names.",
  tags: ['topics'],
  security: BEARER,
  response: {
    200: Type.Object({ data: Type.Object({ deleted: Type.Integer({ minimum: 0 }), names: Type.Array(Type.String()) }) }),
    ...errorResponses(401, 503),
  },
} as const;
