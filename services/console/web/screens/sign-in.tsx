import { useState } from 'preact/hooks';
import { api, errorsOf, messagesOf } from '../api/client.ts';
import { signedOutBecause, signIn } from '../api/session.ts';
import { Errors } from '../components/ui.tsx';

/** Signs in with a project API key, checked against the API before it is kept (for this tab's session only). */
export function SignIn() {
  const [key, setKey] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [reason] = useState(signedOutBecause);
  document.title = 'Sign in · Herald console';
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(undefined);
    const candidate = key.trim();
    // Checked with the key in the header of one request; kept only if the API accepts it.
    try {
      const { error, response } = await api.GET('/api/v1/topics', { params: { query: { limit: 1 } }, headers: { authorization: `Bearer ${candidate}` } });
      if (response.ok) signIn(candidate);
      else setErrors(response.status === 401 ? ['This API key is not valid.'] : errorsOf(error, response.status));
    } catch (error) {
      setErrors(messagesOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Herald console</h1>
      {reason === undefined ? null : (
        <p class="notice" role="alert" data-testid="signed-out-reason">
          {reason}
        </p>
      )}
      <form onSubmit={(event) => void submit(event)}>
        <label for="api-key">Project API key</label>
        <input id="api-key" name="api-key" type="password" autoComplete="off" spellcheck={false} required value={key} onInput={(event) => setKey(event.currentTarget.value)} />
        <p class="muted">Kept in this tab for this session only; signing out or closing the tab forgets it.</p>
        <Errors errors={errors} />
        <button type="submit" disabled={busy || key.trim() === ''}>
          Sign in
        </button>
      </form>
      <p class="hint">
        No key? Whoever runs Herald issues one per project: <code>npm run herald -- keys issue &lt;project-id&gt;</code>.
      </p>
      <h2>Operators</h2>
      <p>
        <a href="/console/operator">Operator sign in (dead letters)</a>
      </p>
      <p class="hint">
        The operator page takes the server's admin token, not a project key: whoever runs the API sets <code>HERALD_ADMIN_TOKEN</code> (at least 32 characters, e.g.{' '}
        <code>openssl rand -base64 32</code>) when starting it and hands it to operators. Without it the operator page is off.
      </p>
    </main>
  );
}
