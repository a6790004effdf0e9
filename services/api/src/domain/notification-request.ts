import type { Static } from 'typebox';
import { createEvent, type NotificationRequestedV2, type PinnedTemplate, type TargetExpression, type PinnedSegment, type SplitVariant } from '@herald/events';
import { type DeliveryCounts, FINISHED_STATUSES, isScheduled, type NotificationDocument, ZERO_COUNTS } from '@herald/read-models';
import { fitsProviderLimits } from '@herald/push-payloads';
import { MAX_TEST_TARGETS, type Notification, type NotificationRequest } from '../schemas/notifications.ts';
import { PaceInput, PushOptionsInput, ScheduleInput } from '../schemas/push-options.ts';

export type NotificationInput = Static<typeof NotificationRequest>;
export type NotificationView = Static<typeof Notification>;

/**
 * Problems the schema cannot see: the push payload must fit the providers'
 * 4 KB limit once ids are added. Checked only when title and body are strings.
 */
export function sizeProblems(input: Partial<NotificationInput> | undefined, notificationId: string, projectId: string): string[] {
  if (typeof input?.title !== 'string' || typeof input.body !== 'string') return [];
  const { send_at: _at, send_at_local: _local, rate_per_minute: _rate, max_duration: _duration, priority_lane: _lane, ...fields } = pushFields(input);
  return fitsProviderLimits({ ...fields, notification_id: notificationId, project_id: projectId, title: input.title, body: input.body });
}

/** Each literal variant of an A/B send must fit the providers' limits as a send of its own does. */
export function variantSizeProblems(input: Partial<NotificationInput> | undefined, notificationId: string, projectId: string): string[] {
  if (!Array.isArray(input?.variants)) return [];
  return input.variants.flatMap((variant, index) => {
    if (typeof variant !== 'object' || variant === null) return [];
    const { name: _name, template: _template, variables: _variables, image: _image, ...content } = variant;
    return sizeProblems({ ...input, ...content }, notificationId, projectId).map((problem) => `notification.variants[${index}]: ${problem}`);
  });
}

/** The optional fields the client set, as they travel on the event (absent ones left out). */
function pushFields(input: Partial<NotificationInput>): Omit<Partial<NotificationInput>, 'targets' | 'title' | 'body'> {
  return Object.fromEntries(OPTIONAL_FIELDS.flatMap((key) => (input[key] === undefined ? [] : [[key, input[key]]])));
}

const OPTIONAL_FIELDS = ['link_to', 'group', ...Object.keys(PushOptionsInput), ...Object.keys(ScheduleInput), ...Object.keys(PaceInput)] as Array<keyof NotificationInput>;

/**
 * A request's targets as expressions: the route schema checks a target's
 * outer shape, libs/audience `targetProblems` the rest, and a request with
 * a problem never gets this far (#check throws first).
 */
export function checkedTargets(input: Pick<NotificationInput, 'targets'>): TargetExpression[] {
  return input.targets as unknown as TargetExpression[];
}

/**
 * The send as an event. A template send pins its version (`template`: the
 * content whole, with the variables), and its `title` and `body` are the
 * default locale's Liquid, so readers that show a send have something to
 * show; delivery renders from `template`.
 */
export function requestedEvent(input: NotificationInput, notificationId: string, projectId: string, correlationId: string | undefined, now: Date, template?: PinnedTemplate, segments: readonly PinnedSegment[] = [], variants?: SplitVariant[]): NotificationRequestedV2 {
  // An A/B send shows its first variant as its own title and body.
  const first = variants?.[0];
  const defaults = template?.content.default ?? first?.template?.content.default ?? (first === undefined ? undefined : { title: first.title ?? '', body: first.body ?? '' });
  // The send's own template fields never travel as they were written: the pinned version and the localisations do.
  const { template: _reference, variables: _variables, localizations: _localizations, variants: _variants, holdout_percent: _holdout, test: _test, fallback: _fallback, test_send: _testSend, ...fields } = pushFields(input);
  return createEvent(
    'NotificationRequested',
    {
      notification_id: notificationId,
      title: defaults?.title ?? input.title ?? '',
      body: defaults?.body ?? input.body ?? '',
      targets: checkedTargets(input),
      ...fields,
      ...(template === undefined ? {} : { template }),
      // The segments' versions as they were now: a later edit never changes what this send meant.
      ...(segments.length === 0 ? {} : { segments: [...segments] }),
      ...(input.localizations === undefined ? {} : { localizations: input.localizations }),
      ...splitFields(input, variants),
      ...(input.test_send === true ? { test_send: true as const } : {}),
    },
    { project_id: projectId, correlation_id: correlationId, now },
  );
}

const TEST_TARGET_KEYS = new Set(['device_id', 'token', 'external_id']);

/**
 * A test send reaches only devices it names (by device id, token or user),
 * a few of them: it is left out of the list, so it must not be a campaign.
 */
export function testSendProblems(input: Partial<NotificationInput> | undefined): string[] {
  if (input?.test_send !== true || !Array.isArray(input.targets)) return [];
  if (input.targets.length > MAX_TEST_TARGETS) return [`notification.targets: a test send names at most ${MAX_TEST_TARGETS} devices or users`];
  return input.targets.flatMap((target, index) =>
    typeof target === 'object' && target !== null && Object.keys(target).length === 1 && TEST_TARGET_KEYS.has(Object.keys(target)[0]!)
      ? []
      : [`notification.targets[${index}]: a test send names devices only: {"device_id"}, {"token"} or {"external_id"}`],
  );
}

/** An A/B send's fields as its event carries them: the variants (templates pinned), the holdout, the test and the fallback. */
function splitFields(input: NotificationInput, variants: SplitVariant[] | undefined): Partial<NotificationRequestedV2['data']> {
  if (variants === undefined) return {};
  return {
    variants,
    holdout_percent: input.holdout_percent ?? 0,
    ...(input.test === undefined ? {} : { test: input.test }),
    ...(input.fallback === undefined ? {} : { fallback: input.fallback }),
  };
}

/** As the client sees it right after 201: queued (or scheduled), counts not yet known. */
export function acceptedView(event: NotificationRequestedV2): NotificationView {
  const status = isScheduled(event.data, event.occurred_at) ? 'scheduled' : 'queued';
  const { notification_id: _id, ...request } = event.data;
  return { ...baseView({ ...event.data, _id: event.data.notification_id, status, created_at: event.occurred_at }), priority_lane: event.data.priority_lane ?? null, request };
}

// `replaces` as the event and (once projected) the document carry it.
type ViewFields = Pick<NotificationDocument, '_id' | 'title' | 'body' | 'targets' | 'link_to' | 'group' | 'status' | 'created_at' | 'test_send'> & { replaces?: string | undefined };

function baseView(doc: ViewFields): NotificationView {
  return {
    id: doc._id,
    title: doc.title,
    body: doc.body,
    targets: doc.targets,
    link_to: doc.link_to ?? null,
    group: doc.group ?? null,
    status: doc.status,
    created_at: doc.created_at,
    ...(doc.test_send === true ? { test_send: true } : {}),
    ...(doc.replaces === undefined ? {} : { replaces: doc.replaces }),
  };
}

const withExpired = (counts: DeliveryCounts) => ({ ...counts, expired: counts.expired ?? 0, capped: counts.capped ?? 0, deferred: counts.deferred ?? 0 });

/** Whether the answer carries `pace` (and so is worth an audience estimate): a paced or paused send. */
export const isPaced = (doc: Pick<NotificationDocument, 'rate_per_minute' | 'paused'>): boolean => doc.rate_per_minute !== undefined || doc.paused === true;

/**
 * A paced or paused send's progress (pure): devices with an outcome against
 * the audience (the estimate while partitions are still dispatching), and
 * when the last push should leave at the current rate.
 */
export function paceView(doc: Pick<NotificationDocument, 'rate_per_minute' | 'paused' | 'counts' | 'status'>, audienceEstimate: number | undefined, now: number): NotificationView['pace'] {
  const { counts } = doc;
  const settled = counts.delivered + counts.failed + counts.invalid + counts.cancelled + (counts.expired ?? 0) + (counts.capped ?? 0);
  const audience = Math.max(audienceEstimate ?? 0, counts.targeted);
  const finished = FINISHED_STATUSES.includes(doc.status);
  const remaining = finished ? 0 : Math.max(0, audience - settled);
  const rate = doc.rate_per_minute;
  const eta = doc.paused === true || rate === undefined || remaining === 0 ? null : new Date(now + (remaining / rate) * 60_000).toISOString();
  return {
    rate_per_minute: rate ?? null,
    paused: doc.paused === true,
    audience_estimate: audienceEstimate ?? null,
    progress: finished ? 1 : audience === 0 ? null : Math.min(1, settled / audience),
    eta,
  };
}

/** The read model's document as the API answers it: status, counts in all and per provider, timestamps, the request as sent. */
export function notificationView(doc: NotificationDocument, pace?: NotificationView['pace']): NotificationView {
  const request = {
    title: doc.title,
    body: doc.body,
    targets: doc.targets,
    ...(doc.link_to === undefined ? {} : { link_to: doc.link_to }),
    ...(doc.group === undefined ? {} : { group: doc.group }),
    ...doc.options,
  };
  return {
    ...baseView(doc),
    counts: withExpired(doc.counts),
    counts_by_provider:
      doc.by_provider === undefined
        ? { apns: withExpired(ZERO_COUNTS), fcm: withExpired(ZERO_COUNTS) }
        : { apns: withExpired(doc.by_provider.apns), fcm: withExpired(doc.by_provider.fcm), ...(doc.by_provider.webpush === undefined ? {} : { webpush: withExpired(doc.by_provider.webpush) }), ...(doc.by_provider.hms === undefined ? {} : { hms: withExpired(doc.by_provider.hms) }) },
    ...(doc.by_variant === undefined ? {} : { counts_by_variant: Object.fromEntries(Object.entries(doc.by_variant).map(([name, counts]) => [name, withExpired(counts)])) }),
    ...(doc.decision === undefined ? {} : { decision: decisionView(doc.decision) }),
    priority_lane: laneOf(doc.options),
    dispatched_at: doc.dispatched_at ?? null,
    finished_at: doc.finished_at ?? null,
    ...(pace === undefined ? {} : { pace }),
    request,
  };
}

/** The `priority_lane` the request set (null: decided by size per partition). */
function laneOf(options: NotificationDocument['options']): NotificationView['priority_lane'] {
  const lane = options?.priority_lane;
  return lane === 'transactional' || lane === 'campaign' ? lane : null;
}

/** The decision as the API shows it (the event's own fields, less what names the fan-out). */
function decisionView(decision: NonNullable<NotificationDocument['decision']>): NonNullable<NotificationView['decision']> {
  const { notification_id: _id, remainder_fanout_id: _fanout, interval, ...rest } = decision;
  return { ...rest, ...(interval === undefined ? {} : { interval: [...interval] }) };
}
