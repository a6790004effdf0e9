import type { paths } from '@herald/client';
import { CONTENT_FIELD_OF, contentOf, EMPTY_CONTENT, type ContentForm, type NotificationRequest } from './draft-variants.ts';

export type { NotificationRequest, SendBody } from './draft-variants.ts';
export type Notification = paths['/api/v1/notifications/{id}']['get']['responses'][200]['content']['application/json']['data'];

/** The composer's form: every field as the person typed it (content: literal, localised, a template or an A/B test; lib/draft-variants.ts). */
export interface Draft extends ContentForm {
  /** Topic names picked. */
  topics: string[];
  /** Device ids or tokens, one per line. */
  devices: string;
  /** External (user) ids, one per line. */
  externalIds: string;
  /** `key=value` lines: one metadata filter (a device must match every pair). */
  metadata: string;
  /** A target expression as JSON (`{"and": [...]}`; docs/guides/targets.md), OR'd with the sections above. */
  expression: string;
  link_to: string;
  group: string;
  /** `key=value` lines. */
  data: string;
  badge: string;
  sound: string;
  ttl: string;
  priority: '' | 'high' | 'normal';
  collapse_id: string;
  content_available: boolean;
  mutable_content: boolean;
  image: string;
  category: string;
  thread_id: string;
  /** Raw JSON objects merged last. */
  apns: string;
  fcm: string;
  /** Campaign control: pushes per minute (empty: the project's default, else unpaced). */
  rate_per_minute: string;
  /** Minutes after the send is due when whatever is left expires (the API takes seconds). */
  max_duration: string;
  priority_lane: '' | 'transactional' | 'campaign';
  schedule: 'now' | 'at' | 'local';
  /** `YYYY-MM-DDTHH:MM` from a datetime-local input. */
  sendAt: string;
  sendAtLocal: string;
}

export const EMPTY_DRAFT: Draft = {
  ...EMPTY_CONTENT,
  topics: [],
  devices: '',
  externalIds: '',
  metadata: '',
  expression: '',
  link_to: '',
  group: '',
  data: '',
  badge: '',
  sound: '',
  ttl: '',
  priority: '',
  collapse_id: '',
  content_available: false,
  mutable_content: false,
  image: '',
  category: '',
  thread_id: '',
  apns: '',
  fcm: '',
  rate_per_minute: '',
  max_duration: '',
  priority_lane: '',
  schedule: 'now',
  sendAt: '',
  sendAtLocal: '',
};

export type DraftField = keyof Draft | 'targets';
export type FieldProblems = Partial<Record<DraftField | 'form', string[]>>;

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** `key=value` lines as an object; a line without `=` is a problem naming it. */
function pairs(text: string, field: DraftField, problems: FieldProblems): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf('=');
    if (at <= 0) (problems[field] ??= []).push(`"${line}" is not key=value`);
    else result[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return Object.keys(result).length === 0 ? undefined : result;
}

/** The expression field as targets: nothing when empty, one target for a JSON object or string, a problem otherwise. */
function expressionOf(text: string, problems: FieldProblems): NotificationRequest['targets'] {
  if (text.trim() === '') return [];
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value))) return [value];
  } catch {
    // reported below
  }
  (problems.expression ??= []).push('must be one target as JSON, e.g. {"and": [{"topic": "promotions"}, {"metadata": {"country": "US"}}]}');
  return [];
}

function json(text: string, field: DraftField, problems: FieldProblems): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  (problems[field] ??= []).push('must be a JSON object');
  return undefined;
}

/** Device ids are UUIDs (derived from project and token); a line that is not one is a token. */
const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A number as typed; one that is not a number at all is a problem on its
 * field (it would be sent as null); any other (e.g. "1.5") is sent as is for
 * the API to name.
 */
function numberOf(text: string, field: DraftField, problems: FieldProblems): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text.trim());
  if (Number.isFinite(value)) return value;
  (problems[field] ??= []).push(`"${text.trim()}" is not a number: a whole number, 0 or more`);
  return undefined;
}

/** `YYYY-MM-DDTHH:MM` in the browser's zone → RFC 3339 with its offset. */
export function instantOf(local: string, offsetMinutes: number): string {
  const sign = offsetMinutes <= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local.length === 16 ? `${local}:00` : local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The request a draft makes, and the problems found before asking the API
 * (text that is not JSON or key=value). Empty fields are left out. Targets
 * are typed, so each names exactly what the manager picked: topics, then
 * device ids (a UUID) or tokens (anything else), one metadata filter, users.
 */
export function requestOf(draft: Draft, offsetMinutes = new Date().getTimezoneOffset()): { request: NotificationRequest; problems: FieldProblems } {
  const problems: FieldProblems = {};
  const metadata = pairs(draft.metadata, 'metadata', problems);
  const targets: NotificationRequest['targets'] = [
    ...draft.topics.map((topic) => ({ topic })),
    ...lines(draft.devices).map((line) => (DEVICE_ID.test(line) ? { device_id: line } : { token: line })),
    ...(metadata === undefined ? [] : [{ metadata }]),
    ...lines(draft.externalIds).map((external_id) => ({ external_id })),
    // Checked by the API, which names the path of a bad node (notification.targets[N].and[1]…).
    ...expressionOf(draft.expression, problems),
  ];
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const optional = {
    link_to: text(draft.link_to),
    group: text(draft.group),
    data: pairs(draft.data, 'data', problems),
    badge: numberOf(draft.badge, 'badge', problems),
    sound: text(draft.sound),
    ttl: numberOf(draft.ttl, 'ttl', problems),
    priority: draft.priority === '' ? undefined : draft.priority,
    collapse_id: text(draft.collapse_id),
    content_available: draft.content_available ? true : undefined,
    mutable_content: draft.mutable_content ? true : undefined,
    image: text(draft.image),
    category: text(draft.category),
    thread_id: text(draft.thread_id),
    apns: json(draft.apns, 'apns', problems),
    fcm: json(draft.fcm, 'fcm', problems),
    ...pacingOf(draft, problems),
    send_at: draft.schedule === 'at' && draft.sendAt !== '' ? instantOf(draft.sendAt, offsetMinutes) : undefined,
    send_at_local: draft.schedule === 'local' && draft.sendAtLocal !== '' ? draft.sendAtLocal : undefined,
  };
  if (draft.schedule === 'at' && draft.sendAt === '') (problems.sendAt ??= []).push('pick a date and time');
  if (draft.schedule === 'local' && draft.sendAtLocal === '') (problems.sendAtLocal ??= []).push('pick a date and time');
  const request = { ...contentOf(draft, problems), targets, ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)) };
  return { request: request, problems };
}

const MAX_RATE = 100_000_000;
const MAX_DURATION_MINUTES = 30 * 24 * 60;

/** A whole number in [min, max] as typed, or a problem on `field`; undefined when empty. */
function wholeIn(text: string, min: number, max: number, field: DraftField, problems: FieldProblems, what: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text.trim());
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  (problems[field] ??= []).push(`${what}: a whole number from ${min.toLocaleString('en')} to ${max.toLocaleString('en')}`);
  return undefined;
}

/** Pacing, max duration and lane with the API's rules: a transactional send is never paced. */
function pacingOf(draft: Draft, problems: FieldProblems): Pick<NotificationRequest, 'rate_per_minute' | 'max_duration' | 'priority_lane'> {
  const rate = wholeIn(draft.rate_per_minute, 1, MAX_RATE, 'rate_per_minute', problems, 'pushes per minute');
  const minutes = wholeIn(draft.max_duration, 1, MAX_DURATION_MINUTES, 'max_duration', problems, 'minutes (at most 30 days)');
  const lane = draft.priority_lane === '' ? undefined : draft.priority_lane;
  if (lane === 'transactional' && draft.rate_per_minute.trim() !== '') (problems.rate_per_minute ??= []).push('a transactional send is never paced: leave the pace empty or pick the campaign lane');
  return { rate_per_minute: rate, max_duration: minutes === undefined ? undefined : minutes * 60, priority_lane: lane };
}

const FIELD_OF: Record<string, DraftField> = { send_at: 'sendAt', send_at_local: 'sendAtLocal', ...CONTENT_FIELD_OF };

/** The API's 422 messages by the field they name (`notification.badge must …` → badge); others under `form`. */
export function problemsByField(messages: readonly string[]): FieldProblems {
  const problems: FieldProblems = {};
  for (const message of messages) {
    const match = /^notification\.([a-z_]+)/.exec(message);
    const name = match?.[1];
    const field: DraftField | 'form' = name === undefined ? 'form' : (FIELD_OF[name] ?? (name in EMPTY_DRAFT || name === 'targets' ? (name as DraftField) : 'form'));
    (problems[field] ??= []).push(message);
  }
  return problems;
}

/** An idempotency key for a draft: sends of one draft are one notification, however often the button is pressed. */
export function newDraftKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
