import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination } from './common.ts';
import { PlatformCounts } from './console-reads.ts';
import { TargetSchema } from './notifications.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const SegmentVersionView = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The segment id (derived from the project and the name)' }),
    name: Type.String(),
    version: Type.Integer({ minimum: 1, description: 'This version; versions never change' }),
    filter: TargetSchema,
    created_at: Timestamp,
  },
  { $id: 'SegmentVersion' },
);

export const SegmentSummary = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String(), latest_version: Type.Integer({ minimum: 1 }), created_at: Timestamp, updated_at: Timestamp },
  { $id: 'SegmentSummary' },
);

const SegmentId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The segment id' }) });

const FILTER = 'The filter is one target (docs/guides/targets.md): a plain string, a typed target or an expression, and may name other segments (`{"segment": …}`) but never itself, directly or through others. A bad filter answers 422 naming the path (`filter.and[1].not: …`), a cycle or an unknown segment too.';

export const createSegmentSchema = {
  summary: 'Save a segment (its version 1)',
  description: `${FILTER} 409 when the project has a segment of that name (PUT makes a new version).`,
  tags: ['segments'],
  security: BEARER,
  body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 256, description: 'Unique in the project' }), filter: TargetSchema }, { additionalProperties: false }),
  response: { 201: Type.Object({ data: SegmentVersionView }), ...errorResponses(400, 401, 409, 413, 415, 422, 503) },
} as const;

export const updateSegmentSchema = {
  summary: "Save a new version of a segment's filter",
  description: `Versions are immutable: this makes version n+1 and answers it. Sends already accepted keep the version they pinned. ${FILTER}`,
  tags: ['segments'],
  security: BEARER,
  params: SegmentId,
  body: Type.Object({ filter: TargetSchema }, { additionalProperties: false }),
  response: { 200: Type.Object({ data: SegmentVersionView }), ...errorResponses(400, 401, 404, 413, 415, 422, 503) },
} as const;

export const listSegmentsSchema = {
  summary: 'The segments of the project, oldest first',
  tags: ['segments'],
  security: BEARER,
  querystring: Type.Object(PageQuery, { additionalProperties: false }),
  response: { 200: Type.Object({ data: Type.Array(SegmentSummary), pagination: Pagination }), ...errorResponses(400, 401) },
} as const;

export const getSegmentSchema = {
  summary: "A segment's newest version, with its filter",
  tags: ['segments'],
  security: BEARER,
  params: SegmentId,
  response: { 200: Type.Object({ data: SegmentVersionView }), ...errorResponses(400, 401, 404) },
} as const;

export const getSegmentVersionSchema = {
  summary: 'One version of a segment, with its filter',
  tags: ['segments'],
  security: BEARER,
  params: Type.Object({ ...SegmentId.properties, version: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }) }),
  response: { 200: Type.Object({ data: SegmentVersionView }), ...errorResponses(400, 401, 404) },
} as const;

export const countSegmentSchema = {
  summary: 'How many active devices the segment holds now, by platform',
  description: "The dry run's answer for a send to `{\"segment\": id}`: the segment's newest version, evaluated with the audience predicate on the devices read model.",
  tags: ['segments'],
  security: BEARER,
  params: SegmentId,
  response: { 200: Type.Object({ data: Type.Object({ total: Type.Integer(), by_platform: PlatformCounts }) }), ...errorResponses(400, 401, 404, 422, 503) },
} as const;

export const deleteSegmentSchema = {
  summary: 'Delete a segment and its versions',
  description: 'Sends already accepted keep the version they pinned (in their own event). New sends naming it, or naming a segment that references it, answer 422.',
  tags: ['segments'],
  security: BEARER,
  params: SegmentId,
  response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 404, 503) },
} as const;
