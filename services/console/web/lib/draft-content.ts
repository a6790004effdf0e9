import { EMPTY_DRAFT, type Draft, type NotificationRequest } from './draft.ts';
import { contentFormOf } from './draft-variants.ts';

/**
 * What the console keeps in a server-side draft (POST /api/v1/drafts):
 * `notification`, the request as it would be sent now (what an API user
 * reads), and `form`, the composer's fields exactly as typed, so a resumed
 * draft shows what was left, half-typed values included. A draft made by
 * duplicating a sent notification has only `notification`: its form is
 * derived from the request (formOf).
 */
export interface DraftContent {
  notification: NotificationRequest;
  form?: Draft;
  /** An edit of a scheduled notification: sending this draft replaces that one (POST …/{id}/replace). */
  replaces?: string;
}

/** The scheduled notification a stored draft edits, if it is such an edit. */
export function replacesOf(content: unknown): string | undefined {
  return isRecord(content) && typeof content.replaces === 'string' ? content.replaces : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
const pairLines = (value: unknown): string => (isRecord(value) ? Object.entries(value).map(([key, each]) => `${key}=${typeof each === 'string' ? each : JSON.stringify(each)}`).join('\n') : '');
const jsonText = (value: unknown): string => (isRecord(value) ? JSON.stringify(value) : '');

/**
 * The composer's fields for a request (a sent notification's, to be sent
 * again): plain-string and `{"topic"}` targets become topics, typed device,
 * token and user targets their lines, and anything else (metadata,
 * expressions, segments) one expression, OR'd as the request had them.
 * The schedule is reset to now: the old time has passed or belongs to the
 * old send.
 */
export function formOf(request: Partial<NotificationRequest> & Record<string, unknown>): Draft {
  const topics: string[] = [];
  const devices: string[] = [];
  const users: string[] = [];
  const rest: unknown[] = [];
  for (const target of Array.isArray(request.targets) ? (request.targets as unknown[]) : []) {
    if (typeof target === 'string') topics.push(target);
    else if (isRecord(target) && Object.keys(target).length === 1 && typeof target.topic === 'string') topics.push(target.topic);
    else if (isRecord(target) && Object.keys(target).length === 1 && typeof target.device_id === 'string') devices.push(target.device_id);
    else if (isRecord(target) && Object.keys(target).length === 1 && typeof target.token === 'string') devices.push(target.token);
    else if (isRecord(target) && Object.keys(target).length === 1 && typeof target.external_id === 'string') users.push(target.external_id);
    else rest.push(target);
  }
  const lane = request.priority_lane === 'transactional' || request.priority_lane === 'campaign' ? request.priority_lane : '';
  const priority = request.priority === 'high' || request.priority === 'normal' ? request.priority : '';
  return {
    ...EMPTY_DRAFT,
    ...contentFormOf(request),
    topics,
    devices: devices.join('\n'),
    externalIds: users.join('\n'),
    expression: rest.length === 0 ? '' : JSON.stringify(rest.length === 1 ? rest[0] : { or: rest }),
    link_to: str(request.link_to),
    group: str(request.group),
    data: pairLines(request.data),
    badge: str(request.badge),
    sound: str(request.sound),
    ttl: str(request.ttl),
    priority,
    collapse_id: str(request.collapse_id),
    content_available: request.content_available === true,
    mutable_content: request.mutable_content === true,
    image: str(request.image),
    category: str(request.category),
    thread_id: str(request.thread_id),
    apns: jsonText(request.apns),
    fcm: jsonText(request.fcm),
    rate_per_minute: str(request.rate_per_minute),
    max_duration: typeof request.max_duration === 'number' ? String(Math.max(1, Math.round(request.max_duration / 60))) : '',
    priority_lane: lane,
  };
}

/** The composer's fields of a stored draft's content: the form kept, or one derived from its request; an empty form for content this console did not write. */
export function formOfContent(content: unknown): Draft {
  if (!isRecord(content)) return { ...EMPTY_DRAFT };
  if (isRecord(content.form)) return { ...EMPTY_DRAFT, ...(content.form as Partial<Draft>) };
  return isRecord(content.notification) ? formOf(content.notification) : { ...EMPTY_DRAFT };
}

/** A name for a draft nobody named yet: its title, else "Untitled draft". */
export function defaultDraftName(form: Draft): string {
  const title = (form.contentMode === 'template' ? form.template : form.contentMode === 'ab' ? (form.variants[0]?.title ?? '') : form.title).trim();
  return title === '' ? 'Untitled draft' : title.slice(0, 200);
}
