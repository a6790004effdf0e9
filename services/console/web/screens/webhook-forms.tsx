import { useState } from 'preact/hooks';
import type { paths } from '@herald/client';
import { api, dataOf, messagesOf } from '../api/client.ts';
import { ConfirmButton, Errors } from '../components/ui.tsx';
import { instantOf } from '../lib/draft.ts';

/** A signing secret the API shows once: at creation, and after a rotation. */
export interface ShownSecret {
  url: string;
  secret: string;
  rotated: boolean;
}

type EventTypes = paths['/api/v1/webhooks']['post']['requestBody']['content']['application/json']['event_types'];

/** Event types as typed: comma- or space-separated; empty means every type. */
export function eventTypesOf(text: string): string[] | undefined {
  const types = text.split(/[\s,]+/).filter((type) => type !== '');
  return types.length === 0 ? undefined : types;
}

/** Registers a webhook (POST /api/v1/webhooks); its signing secret comes back once. */
export function WebhookCreate({ onCreated }: { onCreated: (secret: ShownSecret) => void }) {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(undefined);
    try {
      const eventTypes = eventTypesOf(types) as EventTypes;
      const created = dataOf(await api.POST('/api/v1/webhooks', { body: { url: url.trim(), ...(eventTypes === undefined ? {} : { event_types: eventTypes }) } }));
      onCreated({ url: created.data.url, secret: created.secret, rotated: false });
      setUrl('');
      setTypes('');
    } catch (error) {
      setErrors(messagesOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="new-webhook">
      <h2 id="new-webhook">Add a webhook</h2>
      <div class="webhook-form">
        <div class="field">
          <label for="webhook-url">Endpoint (https URL)</label>
          <input id="webhook-url" type="text" value={url} onInput={(event) => setUrl(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="webhook-types">Event types</label>
          <input id="webhook-types" type="text" value={types} aria-describedby="webhook-types-hint" onInput={(event) => setTypes(event.currentTarget.value)} />
          <p class="hint" id="webhook-types-hint">
            Comma-separated, e.g. DeliveryReported, NotificationOpened; empty: all of them.
          </p>
        </div>
      </div>
      <Errors errors={errors} />
      <button type="submit" disabled={busy || url.trim() === ''}>
        Add webhook
      </button>
    </form>
  );
}

/** Rotate the secret, replay from a time, delete: each answered by the API, the irreversible ones asked first. */
export function WebhookActions({ id, url, paused, onSecret, onChanged }: { id: string; url: string; paused: boolean; onSecret: (secret: ShownSecret) => void; onChanged: () => void }) {
  const [from, setFrom] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const run = async (call: () => Promise<void>) => {
    setErrors(undefined);
    setDone(undefined);
    try {
      await call();
    } catch (error) {
      setErrors(messagesOf(error));
    }
    onChanged();
  };
  const rotate = () =>
    run(async () => {
      const rotated = dataOf(await api.PATCH('/api/v1/webhooks/{id}', { params: { path: { id } }, body: { rotate_secret: true } }));
      if (rotated.secret !== undefined) onSecret({ url, secret: rotated.secret, rotated: true });
    });
  const replay = () =>
    run(async () => {
      const { response, error } = await api.POST('/api/v1/webhooks/{id}/replay', { params: { path: { id } }, body: { from: instantOf(from, new Date().getTimezoneOffset()) } });
      if (!response.ok) throw new Error(messagesOfBody(error, response.status));
      setDone('Replay started: everything since then is delivered again, with the same event ids.');
    });
  // Paused, the webhook keeps its position: resumed, it delivers what came meanwhile.
  const setPaused = (pause: boolean) =>
    run(async () => {
      dataOf(await api.PATCH('/api/v1/webhooks/{id}', { params: { path: { id } }, body: { paused: pause } }));
      setDone(pause ? 'Paused: nothing is posted until it is resumed; it then delivers what it missed.' : 'Resumed: it delivers what it missed, then goes on.');
    });
  const remove = () =>
    run(async () => {
      const { response, error } = await api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } });
      if (!response.ok) throw new Error(messagesOfBody(error, response.status));
    });
  return (
    <div class="row-actions">
      <button type="button" aria-label={`${paused ? 'Resume' : 'Pause'}: ${url}`} onClick={() => void setPaused(!paused)}>
        {paused ? 'Resume' : 'Pause'}
      </button>
      <ConfirmButton label="Rotate secret" detail={url} question="Make a new signing secret? The old one keeps signing beside it for a day." confirmLabel="Yes, rotate it" onConfirm={rotate} />
      <form class="row-actions" onSubmit={(event) => (event.preventDefault(), void replay())}>
        <label for={`replay-${id}`}>Replay from</label>
        <input id={`replay-${id}`} type="datetime-local" value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
        <button type="submit" disabled={from === ''} aria-label={`Replay: ${url}`}>
          Replay
        </button>
      </form>
      <ConfirmButton label="Delete" detail={url} question="Delete this webhook? Deliveries stop within seconds." confirmLabel="Yes, delete it" onConfirm={remove} />
      <p role="status">{done ?? ''}</p>
      <Errors errors={errors} />
    </div>
  );
}

const messagesOfBody = (error: unknown, status: number): string => {
  const errors = (error as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors.join('; ') : `the API answered ${status}`;
};
