import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination } from './common.ts';

export const Topic = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    subscribers: Type.Integer({ description: 'Active devices subscribed to the topic (an extra beyond the spec)' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Topic' },
);

export const listTopicsSchema = {
  summary: 'List topics of the current project',
  description: 'Topics in creation order (then id). A page past the last one is empty.',
  tags: ['topics'],
  security: BEARER,
  querystring: Type.Object(PageQuery, { additionalProperties: false }),
  response: { 200: Type.Object({ data: Type.Array(Topic), pagination: Pagination }), ...errorResponses(400, 401) },
} as const;

export const createTopicSchema = {
  summary: 'Create a topic (idempotent by name)',
  description: 'The topic id is derived from (project, name): creating an existing topic returns it again. Topics are also created when a device first subscribes.',
  tags: ['topics'],
  security: BEARER,
  body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
  response: { 201: Type.Object({ data: Topic }), ...errorResponses(400, 401, 413, 415, 503) },
} as const;
