import { useState } from 'preact/hooks';
import { api, errorsOf, messagesOf } from '../api/client.ts';
import { DEVICE_ID } from '../api/find-devices.ts';
import { newDraftKey, type NotificationRequest } from '../lib/draft.ts';

/** Typed targets of the lines typed: a device id (a UUID), `user:<id>` for a user, else a token. */
export function testTargets(text: string): NotificationRequest['targets'] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => (DEVICE_ID.test(line) ? { device_id: line } : line.startsWith('user:') ? { external_id: line.slice(5).trim() } : { token: line }));
}

/**
 * The request of a test send: the draft as it stands, to the devices named,
 * now and unpaced (a test is looked at on a phone at once), marked
 * `test_send` so the notification list leaves it out.
 */
export function testRequest(request: NotificationRequest, targets: NotificationRequest['targets']): NotificationRequest {
  const { send_at: _at, send_at_local: _local, rate_per_minute: _rate, max_duration: _duration, ...rest } = request;
  return { ...rest, targets, test_send: true };
}

/** "Send a test": the draft delivered to one's own devices before the campaign goes out. */
export function TestSend({ request }: { request: NotificationRequest }) {
  const [devices, setDevices] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | undefined>(undefined);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const targets = testTargets(devices);
  const send = async () => {
    setSending(true);
    setErrors(undefined);
    setSent(undefined);
    try {
      // A key of its own per test: each press is one test, a retry of a lost answer is not a second one.
      const { data, error, response } = await api.POST('/api/v1/notifications', { body: { notification: testRequest(request, targets) }, params: { header: { 'idempotency-key': newDraftKey() } } });
      if (data !== undefined) setSent(data.data.id);
      else setErrors(errorsOf(error, response.status));
    } catch (error) {
      setErrors([`The test was not confirmed. ${messagesOf(error).join(' ')}`]);
    } finally {
      setSending(false);
    }
  };
  return (
    <div class="test-send" data-testid="test-send">
      <h3>Send a test first</h3>
      <label for="test-devices">Your devices</label>
      <textarea id="test-devices" rows={2} class="mono" value={devices} onInput={(event) => setDevices(event.currentTarget.value)} aria-describedby="test-devices-hint" />
      <p class="hint" id="test-devices-hint">
        One per line: a device id, a token, or user:&lt;external id&gt; for every device of a user (at most 20). Sent now, unpaced, marked as a test: the notification list leaves it out.
      </p>
      <button type="button" class="secondary" disabled={sending || targets.length === 0} onClick={() => void send()}>
        {sending ? 'Sending the test…' : 'Send a test'}
      </button>
      {sent === undefined ? null : (
        <p role="status" data-testid="test-sent">
          Test sent: <a href={`/console/notifications/${sent}`}>its report</a>.
        </p>
      )}
      {errors === undefined ? null : (
        <div class="errors" role="alert">
          <ul>
            {errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
