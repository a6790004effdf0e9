import { useState } from 'preact/hooks';
import { api, errorsOf, messagesOf } from '../api/client.ts';

/** Creates a topic by name (POST /api/v1/topics: idempotent by name; 422 names a name of an id's or a token's form). */
export function TopicCreate({ onCreated }: { onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(undefined);
    setDone(undefined);
    try {
      const { data, error, response } = await api.POST('/api/v1/topics', { body: { name: name.trim() } });
      if (data === undefined) return setErrors(errorsOf(error, response.status));
      setDone(`Created topic "${data.data.name}".`);
      setName('');
      onCreated(data.data.name);
    } catch (error) {
      setErrors(messagesOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="toolbar" onSubmit={(event) => void submit(event)} noValidate>
      <div class={`field${errors === undefined ? '' : ' has-error'}`}>
        <label for="new-topic">New topic</label>
        <input id="new-topic" type="text" value={name} aria-invalid={errors === undefined ? undefined : 'true'} aria-describedby={errors === undefined ? undefined : 'new-topic-errors'} onInput={(event) => setName(event.currentTarget.value)} />
        {errors === undefined ? null : (
          <div role="alert">
            <ul class="field-errors" id="new-topic-errors">
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <button type="submit" disabled={busy || name.trim() === ''}>
        Create topic
      </button>
      <p role="status" class="live">
        {done ?? ''}
      </p>
    </form>
  );
}
