import type { Static } from 'typebox';
import { createEvent, type NotificationRequestedV1 } from '@herald/events';
import type { NotificationDocument } from '@herald/mongo';
import { fitsProviderLimits } from '@herald/push-payloads';
import type { Notification, NotificationRequest } from '../schemas/notifications.ts';

export type NotificationInput = Static<typeof NotificationRequest>;
export type NotificationView = Static<typeof Notification>;

/**
 * Problems the schema cannot see: the push payload must fit the providers'
 * 4 KB limit once ids are added. Checked only when title and body are strings.
 */
export function sizeProblems(input: Partial<NotificationInput> | undefined, notificationId: string, projectId: string): string[] {
  if (typeof input?.title !== 'string' || typeof input.body !== 'string') return [];
  return fitsProviderLimits({
    notification_id: notificationId,
    project_id: projectId,
    title: input.title,
    body: input.body,
    link_to: typeof input.link_to === 'string' ? input.link_to : undefined,
    group: typeof input.group === 'string' ? input.group : undefined,
  });
}

export function requestedEvent(input: NotificationInput, notificationId: string, projectId: string, correlationId: string | undefined, now: Date): NotificationRequestedV1 {
  return createEvent(
    'NotificationRequested',
    {
      notification_id: notificationId,
      title: input.title,
      body: input.body,
      targets: input.targets,
      ...(input.link_to === undefined ? {} : { link_to: input.link_to }),
      ...(input.group === undefined ? {} : { group: input.group }),
    },
    { project_id: projectId, correlation_id: correlationId, now },
  );
}

/** As the client sees it right after 201: accepted, counts not yet known. */
export function acceptedView(event: NotificationRequestedV1): NotificationView {
  const { counts: _notYet, ...view } = notificationView({ ...event.data, _id: event.data.notification_id, status: 'accepted', created_at: event.occurred_at });
  return view;
}

export function notificationView(
  doc: Pick<NotificationDocument, '_id' | 'title' | 'body' | 'targets' | 'link_to' | 'group' | 'status' | 'created_at'> & { counts?: NotificationDocument['counts'] },
): NotificationView {
  return {
    id: doc._id,
    title: doc.title,
    body: doc.body,
    targets: doc.targets,
    link_to: doc.link_to ?? null,
    group: doc.group ?? null,
    status: doc.status,
    created_at: doc.created_at,
    ...(doc.counts === undefined ? {} : { counts: doc.counts }),
  };
}
