export interface Unconfirmed {
  /** The draft's Idempotency-Key: the same request with it is answered with the first notification, sent at most once. */
  key: string;
  reasons: string[];
  /** No answer at all (offline, unreachable, too slow), rather than an answer saying it failed. */
  noAnswer: boolean;
  status?: number;
}

/**
 * After Send without a clear answer, says so and how to find out: asking
 * again with the same Idempotency-Key answers the notification if the API
 * took it (and sends nothing twice), or sends it now if it did not.
 */
export function SendOutcome({ unconfirmed, sending, onCheck }: { unconfirmed: Unconfirmed | undefined; sending: boolean; onCheck: (event: Event) => void }) {
  if (unconfirmed === undefined) return null;
  const inProgress = unconfirmed.status === 409;
  return (
    <div class="errors unconfirmed" role="alert" data-testid="send-unconfirmed">
      <h2>{unconfirmed.noAnswer ? 'Could not confirm the send' : inProgress ? 'Not confirmed yet' : 'The API could not take the send'}</h2>
      <ul>
        {unconfirmed.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <p>
        {unconfirmed.noAnswer
          ? 'The notification may or may not have been accepted. '
          : inProgress
            ? 'The API is still taking this send, or this key was used for a different version of the draft. '
            : 'It was not accepted. '}
        This draft's idempotency key is <code class="mono wrap" data-testid="idempotency-key">{unconfirmed.key}</code>. <strong>Check again</strong> sends the same request with
        the same key: if the API took it, it answers with that notification and sends nothing twice; if not, it is sent now. You can also look for it under{' '}
        <a href="/console/notifications">Notifications</a>.
      </p>
      <button type="button" disabled={sending} onClick={onCheck}>
        {sending ? 'Checking…' : 'Check again'}
      </button>
    </div>
  );
}
