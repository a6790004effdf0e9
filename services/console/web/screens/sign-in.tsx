import { useState } from 'preact/hooks';
import { api, errorsOf } from '../api/client.ts';
import { signIn } from '../api/session.ts';
import { Errors } from '../components/ui.tsx';

/** Signs in with a project API key, checked against the API before it is kept (for this tab's session only). */
export function SignIn() {
  const [key, setKey] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  document.title = 'Sign in · Herald console';
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(undefined);
    const candidate = key.trim();
    // Checked with the key in the header of one request; kept only if the API accepts it.
    const { error, response } = await api.GET('/api/v1/topics', { params: { query: { limit: 1 } }, headers: { authorization: `Bearer ${candidate}` } }).catch(() => ({ error: undefined, response: new Response(null, { status: 0 }) }));
    setBusy(false);
    if (response.ok) signIn(candidate);
    else setErrors(response.status === 401 ? ['This API key is not valid.'] : errorsOf(error, response.status));
  };
  return (
    <main id="main" class="sign-in">
      <h1>Herald console</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label for="api-key">Project API key</label>
        <input id="api-key" name="api-key" type="password" autoComplete="off" spellcheck={false} required value={key} onInput={(event) => setKey(event.currentTarget.value)} />
        <p class="muted">Kept in this tab for this session only; signing out or closing the tab forgets it.</p>
        <Errors errors={errors} />
        <button type="submit" disabled={busy || key.trim() === ''}>
          Sign in
        </button>
      </form>
      <p>
        <a href="/console/operator">Operator sign in (dead letters)</a>
      </p>
    </main>
  );
}
