import { useState } from 'preact/hooks';
import { api, errorsOf, messagesOf } from '../../api/client.ts';

/**
 * Saves a target as a new segment under a name. 422 messages (`filter.and[1]: …`)
 * go back to the builder to show at their node; a name taken (409) or
 * refused is said beside the name.
 */
export function SaveAsSegment({ target, onFilterErrors, onSaved, idPrefix = 'ab' }: { target: unknown; onFilterErrors: (messages: string[]) => void; onSaved: (name: string) => void; idPrefix?: string }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const save = async () => {
    if (name.trim() === '') return setProblems(['Give the segment a name.']);
    setBusy(true);
    setProblems([]);
    setSaved(undefined);
    try {
      const { data, error, response } = await api.POST('/api/v1/segments', { body: { name: name.trim(), filter: target as string } });
      if (data !== undefined) {
        onFilterErrors([]);
        setSaved(data.data.name);
        return onSaved(data.data.name);
      }
      const messages = errorsOf(error, response.status);
      const filter = messages.filter((message) => message.startsWith('filter'));
      onFilterErrors(filter);
      setProblems(response.status === 409 ? [`A segment named "${name.trim()}" already exists: pick another name, or edit it on the Segments page.`] : messages.filter((message) => !filter.includes(message)));
    } catch (error) {
      setProblems([`Could not save the segment. ${messagesOf(error).join(' ')}`]);
    } finally {
      setBusy(false);
    }
  };
  const id = `${idPrefix}-segment-name`;
  return (
    <div class="save-segment">
      <span class="leaf-control">
        <label for={id}>Segment name</label>
        <input id={id} type="text" value={name} aria-invalid={problems.length > 0 ? 'true' : undefined} aria-describedby={problems.length > 0 ? `${id}-errors` : undefined} onInput={(event) => setName(event.currentTarget.value)} />
      </span>
      <button type="button" class="secondary" disabled={busy || target === undefined} onClick={() => void save()}>
        {busy ? 'Saving…' : 'Save as segment'}
      </button>
      {problems.length === 0 ? null : (
        <ul class="field-errors" id={`${id}-errors`}>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {saved === undefined ? null : (
        <p role="status" class="live">
          Saved segment "{saved}".
        </p>
      )}
    </div>
  );
}
