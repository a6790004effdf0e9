import Type from 'typebox';
import { BEARER, errorResponses, PageQuery, Pagination } from './common.ts';

const Timestamp = Type.String({ format: 'date-time' });

/** What a draft holds: the send body being composed; it need not be a valid send yet (the send checks it). */
const DraftContent = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'The send body being composed, as POST /api/v1/notifications takes it (`{"notification": …}`). Kept as given (at most 64 KB as JSON): a draft need not be a valid send yet; sending it checks it.',
  },
);

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'What people call the draft (campaign name); need not be unique' });

export const DraftView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    content: DraftContent,
    source_notification_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The notification it was duplicated from, or null' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Draft' },
);

export const DraftSummary = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String(), source_notification_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]), created_at: Timestamp, updated_at: Timestamp },
  { $id: 'DraftSummary' },
);

const DraftId = Type.Object({ id: Type.String({ format: 'uuid', description: 'The draft id' }) });

export const createDraftSchema = {
  summary: 'Save a draft of a send',
  description: '201 with the draft. 422 when the project already keeps 500 drafts or the content is over 64 KB as JSON. `source_notification_id` records a duplicate of a sent notification (it must be one of the project\'s).',
  tags: ['drafts'],
  security: BEARER,
  body: Type.Object({ name: Name, content: DraftContent, source_notification_id: Type.Optional(Type.String({ format: 'uuid' })) }, { additionalProperties: false }),
  response: { 201: Type.Object({ data: DraftView }), ...errorResponses(400, 401, 413, 415, 422, 503) },
} as const;

export const updateDraftSchema = {
  summary: "Replace a draft's name and content",
  tags: ['drafts'],
  security: BEARER,
  params: DraftId,
  body: Type.Object({ name: Name, content: DraftContent }, { additionalProperties: false }),
  response: { 200: Type.Object({ data: DraftView }), ...errorResponses(400, 401, 404, 413, 415, 422, 503) },
} as const;

export const listDraftsSchema = {
  summary: "The project's drafts, the most recently saved first (without their content)",
  tags: ['drafts'],
  security: BEARER,
  querystring: Type.Object(PageQuery, { additionalProperties: false }),
  response: { 200: Type.Object({ data: Type.Array(DraftSummary), pagination: Pagination }), ...errorResponses(400, 401) },
} as const;

export const getDraftSchema = {
  summary: 'A draft with its content',
  tags: ['drafts'],
  security: BEARER,
  params: DraftId,
  response: { 200: Type.Object({ data: DraftView }), ...errorResponses(400, 401, 404) },
} as const;

export const deleteDraftSchema = {
  summary: 'Delete a draft',
  tags: ['drafts'],
  security: BEARER,
  params: DraftId,
  response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 404, 503) },
} as const;
