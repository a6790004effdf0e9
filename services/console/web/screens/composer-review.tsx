import { Fragment } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { audienceText } from '../lib/audience-text.ts';
import type { NotificationRequest } from '../lib/draft.ts';
import { formatCount, formatDuration, formatTime } from '../lib/format.ts';
import { lockScreens, platformsReached } from '../lib/lock-screen.ts';
import { platformCountsText } from '../lib/platforms.ts';
import { TestSend } from './composer-test-send.tsx';
import { ContentReview } from './composer-review-content.tsx';

export interface AudienceCount {
  total: number;
  by_platform: { ios: number; android: number; web?: number; huawei?: number };
}

function scheduleText(request: NotificationRequest): string {
  if (request.send_at !== undefined) return `At ${formatTime(request.send_at)}`;
  if (request.send_at_local !== undefined) return `At ${request.send_at_local.replace('T', ' ')} in each device's own time zone`;
  return 'Now, as soon as it is confirmed';
}

function pacingText(request: NotificationRequest): string {
  const rate = request.rate_per_minute === undefined ? 'Unpaced (the project default pace, if any)' : `${formatCount(request.rate_per_minute)} pushes per minute`;
  return request.max_duration === undefined ? rate : `${rate}; whatever is left after ${formatDuration(request.max_duration)} expires`;
}

/**
 * The last look before a send: who (the audience sentence and its count by
 * platform), what (each platform's lock screen, each locale's text), when,
 * how fast and on which lane. Nothing is sent until "Confirm and send".
 */
export function SendReview({ request, audience, sending, onConfirm, onBack }: { request: NotificationRequest; audience: AudienceCount | undefined; sending: boolean; onConfirm: () => void; onBack: () => void }) {
  // The review opens below a long form: its heading takes the focus (and the view), so keyboard and screen reader users land on it.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const localizations = (request as { localizations?: Record<string, { title?: string; body?: string }> }).localizations;
  return (
    <section class="review" aria-labelledby="review-heading" data-testid="review">
      <h2 id="review-heading" tabIndex={-1} ref={heading}>
        Review before sending
      </h2>
      <dl class="facts">
        <dt>Audience</dt>
        <dd data-testid="review-audience">
          {request.targets.map((target) => audienceText(target)).join('; or ')}
          <br />
          {audience === undefined ? (
            <span class="muted">Not counted yet: the count shows above once the API answers.</span>
          ) : (
            <strong>
              {formatCount(audience.total)} active {audience.total === 1 ? 'device' : 'devices'} now:{' '}
              {platformCountsText(audience.by_platform, formatCount)}
            </strong>
          )}
        </dd>
        <dt>Schedule</dt>
        <dd data-testid="review-schedule">{scheduleText(request)}</dd>
        <dt>Pacing</dt>
        <dd data-testid="review-pacing">{pacingText(request)}</dd>
        <dt>Lane</dt>
        <dd data-testid="review-lane">{request.priority_lane === undefined ? 'Decided by size (the API picks the lane from the audience)' : request.priority_lane}</dd>
      </dl>
      <ContentReview request={request} />
      {request.title === undefined ? null : <h3>On each platform</h3>}
      {request.title === undefined ? null : (
        <dl class="facts" data-testid="review-content">
          {lockScreens(request.title ?? '', request.body ?? '', platformsReached(audience?.by_platform)).map((screen) => (
            <Fragment key={screen.platform}>
              <dt>{screen.label}</dt>
              <dd data-testid={`review-${screen.platform}`}>
                <strong>{screen.title.text}</strong> {screen.body.text}
              </dd>
            </Fragment>
          ))}
        </dl>
      )}
      {localizations === undefined ? null : <h3>By locale</h3>}
      {localizations === undefined ? null : (
        <dl class="facts" data-testid="review-locales">
          {Object.entries(localizations).map(([locale, text]) => (
            <Fragment key={locale}>
              <dt>{locale}</dt>
              <dd>
                <strong>{text.title ?? request.title}</strong> {text.body ?? request.body}
              </dd>
            </Fragment>
          ))}
        </dl>
      )}
      <TestSend request={request} />
      <div class="actions">
        <button type="button" onClick={onConfirm} disabled={sending} data-testid="confirm-send">
          {sending ? 'Sending…' : request.send_at === undefined && request.send_at_local === undefined ? 'Confirm and send' : 'Confirm and schedule'}
        </button>
        <button type="button" class="secondary" onClick={onBack} disabled={sending}>
          Back to editing
        </button>
      </div>
    </section>
  );
}
