import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, dataOf } from '../api/client.ts';
import { DEVICE_ID, findDevices } from '../api/find-devices.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatTime } from '../lib/format.ts';

/** What each reason means, in a sentence (docs/reference/explain.md). */
const REASONS: Record<string, string> = {
  reached: 'Reached: the provider accepted it for this device.',
  provider_rejected: 'Sent, and the provider refused the token (the device is deactivated).',
  send_failed: 'Sent, and the provider did not accept it after retries (or the project has no credentials).',
  not_matched: 'Not matched by any target when the send took its audience.',
  inactive: 'Inactive when the send took its audience.',
  unregistered: 'Deleted by the project before the send.',
  registered_after_send: "Registered after the send's audience was taken.",
  cancelled: 'The notification was cancelled before it was sent to this device.',
  expired: 'The notification expired before it was sent.',
  not_dispatched_yet: 'Not fanned out yet.',
  audience_unknown: 'Its fan-out records (kept 7 days) are gone: where its audience was taken is not known any more.',
  awaiting_report: 'In the audience; no outcome reported yet.',
};

/** Why a device was or was not reached by a notification: /console/notifications/:id/explain?device=… */
export function ExplainReach() {
  const { params } = useRoute();
  const { query, route } = useLocation();
  const id = params.id ?? '';
  const device = query.device ?? '';
  const [input, setInput] = useState(device);
  useTitle('Why was this device not reached?');
  // A token or a user is first found among the devices (the explain reads the log for one device id at a time).
  const candidates = useLoad(async () => (device === '' || DEVICE_ID.test(device) ? undefined : findDevices(device)), [device]);
  const deviceId = DEVICE_ID.test(device) ? device : candidates.data?.length === 1 ? candidates.data[0]!.id : undefined;
  const answer = useLoad(
    async () => (deviceId === undefined ? undefined : dataOf(await api.GET('/api/v1/notifications/{id}/explain', { params: { path: { id }, query: { device_id: deviceId } } })).data),
    [id, deviceId],
  );
  const reach = answer.data?.device ?? undefined;
  return (
    <section>
      <p class="breadcrumb">
        <a href={`/console/notifications/${id}`}>Notification</a>
      </p>
      <h1>Why was this device not reached?</h1>
      <form
        class="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          route(`/console/notifications/${id}/explain?device=${encodeURIComponent(input.trim())}`);
        }}
      >
        <label>
          Device id, token or user <input value={input} onInput={(event) => setInput(event.currentTarget.value)} class="mono" size={40} data-testid="explain-input" />
        </label>
        <button type="submit">Explain</button>
      </form>
      <p class="muted">Answered from the event log: the device as it stood at the send's audience position, judged by the audience predicate.</p>
      <Errors errors={candidates.errors} onRetry={candidates.reload} />
      {candidates.data?.length === 0 ? <p data-testid="explain-none">No device of this project has the token or user id “{device}”.</p> : null}
      {candidates.data !== undefined && candidates.data.length > 1 ? (
        <div data-testid="explain-candidates">
          <p>“{device}” names {candidates.data.length} devices: pick one.</p>
          <ul>
            {candidates.data.map((each) => (
              <li key={each.id}>
                <a href={`/console/notifications/${id}/explain?device=${each.id}`}>
                  {each.platform} device {each.token.slice(0, 16)}…
                </a>{' '}
                <span class="muted mono">{each.id}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {deviceId !== undefined && deviceId !== device ? (
        <p class="muted" data-testid="explain-resolved">
          Device <span class="mono">{deviceId}</span>
        </p>
      ) : null}
      <Errors errors={answer.errors} onRetry={answer.reload} />
      {deviceId === undefined ? <Loading when={candidates.loading && device !== ''} /> : reach === undefined ? <Loading when={answer.loading} /> : (
        <div data-testid="explain-reach">
          <p>
            <strong data-testid="explain-reason">{reach.reason}</strong> — {REASONS[reach.reason] ?? ''}
          </p>
          <p data-testid="explain-summary">{reach.summary}</p>
          {reach.audience_position === null ? null : (
            <p class="muted">
              Audience taken at herald.device-events partition {reach.audience_position.partition}, offset {reach.audience_position.offset}.
            </p>
          )}
          {reach.clauses.length === 0 ? null : (
            <ul data-testid="explain-clauses">
              {reach.clauses.map((clause) => (
                <li key={clause.detail}>
                  {clause.matched ? '✓ ' : '✗ '}
                  {clause.detail}
                </li>
              ))}
            </ul>
          )}
          {reach.evidence === null ? null : (
            <p>
              Provider evidence: {reach.evidence.provider} answered {reach.evidence.reason}
              {reach.inactive_since === null ? '' : ` (inactive since ${formatTime(reach.inactive_since)})`}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** A device's timeline from the log, loaded on request (each explain reads the log: one at a time per project). */
export function DeviceTimeline({ id }: { id: string }) {
  const [asked, setAsked] = useState(false);
  const timeline = useLoad(async () => (asked ? dataOf(await api.GET('/api/v1/devices/{id}/explain', { params: { path: { id } } })).data : undefined), [id, asked]);
  if (!asked) {
    return (
      <button type="button" onClick={() => setAsked(true)}>
        Show the timeline from the log
      </button>
    );
  }
  return (
    <>
      <Errors errors={timeline.errors} onRetry={timeline.reload} />
      {timeline.data === undefined ? <Loading when={timeline.loading} /> : (
        <TableScroll label="Timeline">
          <table data-testid="timeline">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Details</th>
                <th scope="col">Notification</th>
              </tr>
            </thead>
            <tbody>
              {timeline.data.timeline.map((entry) => (
                <tr key={`${entry.log.topic}:${entry.log.partition}:${entry.log.offset}:${entry.kind}`}>
                  <td>{formatTime(entry.at)}</td>
                  <td>{entry.kind.replaceAll('_', ' ')}</td>
                  <td>{entry.summary}</td>
                  <td class="mono">{entry.notification_id === undefined ? '–' : <a href={`/console/notifications/${entry.notification_id}`}>{entry.notification_id}</a>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
