import type { Client } from 'openapi-fetch';
import { api, dataOf } from './client.ts';
import type { DraftContent } from '../lib/draft-content.ts';
import type { NotificationRequest } from '../lib/draft.ts';

/** A draft as GET /api/v1/drafts/{id} answers it (docs/reference/api.md, "Drafts"). */
export interface StoredDraft {
  id: string;
  name: string;
  content: unknown;
  source_notification_id: string | null;
  created_at: string;
  updated_at: string;
}
export type DraftSummary = Omit<StoredDraft, 'content'>;

type Json<T> = { content: { 'application/json': T } };
type Fail = { content: { 'application/json': { errors: string[] } } };
type Pagination = { count: number; page: number; pages: number; from: number; to: number; last: number };
type Id = { path: { id: string } };
type Body = { name: string; content: DraftContent; source_notification_id?: string };

/**
 * The drafts routes as openapi-fetch types them. Written here rather than
 * read from @herald/client's generated paths until that file is
 * regenerated with them (it is generated from the API's route schemas, the
 * one source of these shapes: services/api/src/schemas/drafts.ts).
 */
interface DraftPaths {
  '/api/v1/drafts': {
    get: { parameters: { query?: { page?: number; limit?: number } }; responses: { 200: Json<{ data: DraftSummary[]; pagination: Pagination }>; 400: Fail; 401: Fail } };
    post: { parameters: object; requestBody: Json<Body>; responses: { 201: Json<{ data: StoredDraft }>; 400: Fail; 413: Fail; 422: Fail; 503: Fail } };
  };
  '/api/v1/drafts/{id}': {
    get: { parameters: Id; responses: { 200: Json<{ data: StoredDraft }>; 404: Fail } };
    put: { parameters: Id; requestBody: Json<Omit<Body, 'source_notification_id'>>; responses: { 200: Json<{ data: StoredDraft }>; 404: Fail; 422: Fail } };
    delete: { parameters: Id; responses: { 204: { content?: never }; 404: Fail } };
  };
}

// The same client (its key, timeouts and sign-out on 401), typed for these routes.
const drafts = api as unknown as Client<DraftPaths>;

export const listDrafts = async (): Promise<DraftSummary[]> => dataOf(await drafts.GET('/api/v1/drafts', { params: { query: { limit: 100 } } })).data;
export const getDraft = async (id: string): Promise<StoredDraft> => dataOf(await drafts.GET('/api/v1/drafts/{id}', { params: { path: { id } } })).data;
export const createDraft = async (body: Body): Promise<StoredDraft> => dataOf(await drafts.POST('/api/v1/drafts', { body })).data;
export const updateDraft = async (id: string, body: Omit<Body, 'source_notification_id'>): Promise<StoredDraft> => dataOf(await drafts.PUT('/api/v1/drafts/{id}', { params: { path: { id } }, body })).data;
export async function deleteDraft(id: string): Promise<void> {
  const { response, error } = await drafts.DELETE('/api/v1/drafts/{id}', { params: { path: { id } } });
  if (!response.ok) dataOf({ response, error });
}

/** What a send answers (201 with the notification), as the composer reads it. */
type SendAnswer = Awaited<ReturnType<typeof api.POST<'/api/v1/notifications', { body: { notification: NotificationRequest } }>>>;

interface ReplacePaths {
  '/api/v1/notifications/{id}/replace': {
    post: {
      parameters: { path: { id: string }; header?: { 'idempotency-key'?: string } };
      requestBody: Json<{ notification: NotificationRequest }>;
      responses: { 201: Json<{ data: { id: string } }>; 409: Fail; 404: Fail; 422: Fail; 503: Fail };
    };
  };
}

/**
 * An edit of a scheduled send (POST /api/v1/notifications/{id}/replace):
 * the old one cancelled, this request sent in its place; answered as a send.
 */
export async function replaceNotification(id: string, notification: NotificationRequest, key: string): Promise<SendAnswer> {
  const client = api as unknown as Client<ReplacePaths>;
  return (await client.POST('/api/v1/notifications/{id}/replace', { params: { path: { id }, header: { 'idempotency-key': key } }, body: { notification } })) as unknown as SendAnswer;
}
