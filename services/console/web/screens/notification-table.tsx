import type { Notification } from '../lib/draft.ts';
import { audienceText } from '../lib/audience-text.ts';
import { formatCount, formatTime } from '../lib/format.ts';
import type { FunnelCounts } from '../lib/funnel.ts';
import { shownCounts } from '../lib/progress.ts';
import { StatusBadge, TableScroll } from '../components/ui.tsx';
import { ProgressCell } from '../components/send-progress.tsx';

const ZERO: FunnelCounts = { targeted: 0, sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, opened: 0 };

/** A target as text: a plain string; a topic, device or token; a metadata test; a user; an expression as a sentence (lib/audience-text.ts). */
export function targetText(target: Notification['targets'][number]): string {
  return audienceText(target);
}

export function targetsSummary(targets: Notification['targets']): string {
  const shown = targets.slice(0, 3).map(targetText).join('; ');
  return targets.length > 3 ? `${shown}; +${formatCount(targets.length - 3)} more` : shown;
}

export function NotificationTable({ notifications }: { notifications: readonly Notification[] }) {
  if (notifications.length === 0) return <p class="muted">No notifications yet.</p>;
  return (
    <TableScroll label="Notifications">
      <table>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Targets</th>
            <th scope="col">Created</th>
            <th scope="col">Scheduled for</th>
            <th scope="col" class="num">Targeted</th>
            <th scope="col" class="num">Delivered</th>
            <th scope="col" class="num">Opened</th>
            <th scope="col">Progress</th>
          </tr>
        </thead>
        <tbody>
          {notifications.map((notification) => {
            const counts = shownCounts(notification.counts ?? ZERO);
            const request = notification.request as { send_at?: string; send_at_local?: string } | undefined;
            return (
              <tr key={notification.id} data-testid={`notification-${notification.id}`}>
                <td>
                  <a href={`/console/notifications/${notification.id}`}>{notification.title === '' ? '(no title)' : notification.title}</a>
                  {notification.test_send === true ? <span class="badge badge-test">test</span> : null}
                </td>
                <td>
                  <StatusBadge status={notification.status} />
                </td>
                <td class="clip">{targetsSummary(notification.targets)}</td>
                <td>{formatTime(notification.created_at)}</td>
                <td>{request?.send_at !== undefined ? formatTime(request.send_at) : request?.send_at_local !== undefined ? `${request.send_at_local} local` : '–'}</td>
                <td class="num">{formatCount(counts.targeted)}</td>
                <td class="num">{formatCount(counts.delivered)}</td>
                <td class="num">{formatCount(counts.opened)}</td>
                <td>
                  <ProgressCell notification={{ status: notification.status, counts, pace: notification.pace, dispatched_at: notification.dispatched_at }} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
