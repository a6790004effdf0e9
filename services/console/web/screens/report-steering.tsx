import { useState } from 'preact/hooks';
import { api, dataOf, messagesOf } from '../api/client.ts';
import { ConfirmButton, Errors } from '../components/ui.tsx';
import type { Notification } from '../lib/draft.ts';
import { formatCount } from '../lib/format.ts';
import { minutesLeft, progressOf } from '../lib/progress.ts';

/** What the API lets a send be steered in: PATCH while scheduled, queued, sending or paused (409 after); cancel the same. */
const STEERABLE = new Set(['scheduled', 'queued', 'sending', 'paused']);
const MAX_RATE = 100_000_000;

/** The rate as typed: a whole number 1 … 100,000,000, or the problem with it. */
export function rateOf(text: string): { rate?: number; problem?: string } {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < 1 || value > MAX_RATE) return { problem: `a whole number of pushes per minute, 1 to ${formatCount(MAX_RATE)}` };
  return { rate: value };
}

/**
 * Pause, resume, change the rate and cancel, with the API's rules: a
 * transactional send is never paced; a finished one cannot be steered (the
 * API's 409 is shown); cancel works while paused. Each asks first where it
 * cannot be taken back or changes what is sent.
 */
export function Steering({ notification, onChanged }: { notification: Notification; onChanged: () => void }) {
  const [done, setDone] = useState<string | undefined>(undefined);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const { id, status } = notification;
  if (!STEERABLE.has(status)) return null;
  const act = async (call: () => Promise<unknown>, message: string) => {
    setBusy(true);
    setErrors(undefined);
    setDone(undefined);
    try {
      await call();
      setDone(message);
    } catch (error) {
      setErrors(messagesOf(error));
    } finally {
      setBusy(false);
      onChanged();
    }
  };
  const patch = (body: { state?: 'paused' | 'sending'; rate_per_minute?: number }) => async () => dataOf(await api.PATCH('/api/v1/notifications/{id}', { params: { path: { id } }, body }));
  const cancel = () => act(async () => dataOf(await api.POST('/api/v1/notifications/{id}/cancel', { params: { path: { id } } })), 'Cancelled: devices not yet sent to will not get it.');
  const transactional = notification.priority_lane === 'transactional';
  return (
    <section class="steering" aria-labelledby="steer-heading">
      <h2 id="steer-heading">Steer this send</h2>
      <div class="toolbar">
        {status === 'paused' ? (
          <button type="button" disabled={busy} onClick={() => void act(patch({ state: 'sending' }), 'Resumed: it continues where it stopped.')}>
            Resume
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => void act(patch({ state: 'paused' }), 'Paused: nothing more is queued or sent until you resume; its devices are held, not lost.')}>
            Pause
          </button>
        )}
        <ConfirmButton label="Cancel notification" question={`Cancel this notification${status === 'paused' ? ' (paused)' : ''}? Devices not yet sent to will not get it.`} confirmLabel="Yes, cancel it" onConfirm={cancel} disabled={busy} />
      </div>
      {transactional ? (
        <p class="hint">Transactional: sent on the express lane, never paced (the API refuses a rate for it).</p>
      ) : (
        <RateForm notification={notification} busy={busy} onApply={(rate) => act(patch({ rate_per_minute: rate }), `The pace is now ${formatCount(rate)} per minute.`)} />
      )}
      <p role="status" data-testid="steer-done">
        {busy ? 'Asking the API…' : (done ?? '')}
      </p>
      <Errors errors={errors} />
    </section>
  );
}

function RateForm({ notification, busy, onApply }: { notification: Notification; busy: boolean; onApply: (rate: number) => Promise<void> }) {
  const current = notification.pace?.rate_per_minute ?? null;
  const [text, setText] = useState(current === null ? '' : String(current));
  const [asking, setAsking] = useState<number | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const view = progressOf({ status: notification.status, counts: notification.counts!, pace: notification.pace, dispatched_at: notification.dispatched_at }, Date.now());
  const left = view.audience - view.done;
  const submit = (event: Event) => {
    event.preventDefault();
    const { rate, problem: wrong } = rateOf(text);
    setProblem(wrong);
    if (rate !== undefined) setAsking(rate);
  };
  return (
    <form class="rate-form" onSubmit={submit} noValidate>
      <div class={`field${problem === undefined ? '' : ' has-error'}`}>
        <label for="steer-rate">Pace (pushes per minute)</label>
        <input id="steer-rate" type="text" inputMode="numeric" value={text} aria-invalid={problem === undefined ? undefined : 'true'} aria-describedby={problem === undefined ? 'steer-rate-hint' : 'steer-rate-hint steer-rate-error'} onInput={(event) => setText(event.currentTarget.value)} />
        <p class="hint" id="steer-rate-hint">
          {current === null ? 'Unpaced now: as fast as Herald goes.' : `Now ${formatCount(current)} per minute.`} Applies across every delivery instance from now on.
        </p>
        {problem === undefined ? null : (
          <p class="field-errors" id="steer-rate-error">
            {problem}
          </p>
        )}
      </div>
      {asking === undefined ? (
        <button type="submit" disabled={busy}>
          Change the rate
        </button>
      ) : (
        <div class="confirm" role="group" aria-label="Confirm the new rate">
          <p>
            Send at {formatCount(asking)} per minute from now? The {formatCount(Math.max(0, left))} devices left then take about {formatCount(minutesLeft(left, asking))} min.
          </p>
          <button type="button" disabled={busy} onClick={() => void onApply(asking).finally(() => setAsking(undefined))}>
            Yes, change the rate
          </button>
          <button type="button" onClick={() => setAsking(undefined)}>
            Keep the current rate
          </button>
        </div>
      )}
    </form>
  );
}
