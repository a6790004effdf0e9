import type { Client } from 'openapi-fetch';
import type { paths } from '@herald/client';
import { api, dataOf } from './client.ts';
import type { DraftContent } from '../lib/draft-content.ts';
import type { NotificationRequest } from '../lib/draft.ts';

/** A draft as GET /api/v1/drafts/{id} answers it (docs/reference/api.md, "Drafts"). */
export type StoredDraft = paths['/api/v1/drafts/{id}']['get']['responses'][200]['content']['application/json']['data'];
export type DraftSummary = paths['/api/v1/drafts']['get']['responses'][200]['content']['application/json']['data'][number];

type Json<T> = { content: { 'application/json': T } };
type Fail = { content: { 'application/json': { errors: string[] } } };
// An interface has no index signature; the API takes any object as content.
type Body = { name: string; content: DraftContent & Record<string, unknown>; source_notification_id?: string };

// The drafts routes, typed from the API's OpenAPI document (@herald/client).
const drafts = api;

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

// Typed here until @herald/client is generated again with this route (services/api/src/schemas/notifications.ts replaceNotificationSchema is its source).
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
