import { useEffect, useState } from 'preact/hooks';
import { ApiError, messagesOf } from '../api/client.ts';
import { adminToken, deadLetterCounts, onOperatorSessionChange, operatorSignIn, operatorSignOut, redrive, type DeadLetterCount, type RedriveResult } from '../api/operator.ts';
import { Errors, Loading, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatCount, formatTime } from '../lib/format.ts';

const plural = (count: number, word: string) => `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`;

/**
 * The operator's page (/console/operator): dead letters of every project,
 * behind the admin token (HERALD_ADMIN_TOKEN), with a sign-in of its own,
 * apart from the project key's.
 */
export function Operator() {
  const [signedIn, setSignedIn] = useState(adminToken() !== undefined);
  useEffect(() => onOperatorSessionChange(() => setSignedIn(adminToken() !== undefined)), []);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Herald operator</span>
        <nav aria-label="Main">
          <a href="/console/">Project console</a>
        </nav>
        {signedIn ? (
          <button type="button" class="link-button" onClick={() => operatorSignOut()}>
            Operator sign out
          </button>
        ) : null}
      </header>
      <main id="main">{signedIn ? <DeadLetters /> : <OperatorSignIn />}</main>
    </>
  );
}

function OperatorSignIn() {
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  document.title = 'Operator sign in · Herald console';
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(undefined);
    const candidate = token.trim();
    try {
      // Kept only once the API accepts it.
      await deadLetterCounts(candidate);
      operatorSignIn(candidate);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      setErrors(status === 401 ? ['This admin token is not valid.'] : status === 404 ? ['The operator API is off on this server (HERALD_ADMIN_TOKEN is not set).'] : messagesOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="sign-in">
      <h1>Operator sign in</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label for="admin-token">Admin token</label>
        <input id="admin-token" name="admin-token" type="password" autoComplete="off" spellcheck={false} required value={token} onInput={(event) => setToken(event.currentTarget.value)} />
        <p class="muted">
          The server's <code>HERALD_ADMIN_TOKEN</code>, not a project API key: whoever runs the API sets it when starting it (at least 32 characters, e.g. <code>openssl rand -base64 32</code>) and gives it to
          operators; unset, this page is off. Kept in this tab for this session only.
        </p>
        <Errors errors={errors} />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Sign in as operator
        </button>
      </form>
    </section>
  );
}

function DeadLetters() {
  document.title = 'Dead letters · Herald console';
  const counts = useLoad(() => deadLetterCounts(), []);
  const [done, setDone] = useState<string | undefined>(undefined);
  return (
    <section>
      <h1>Dead letters</h1>
      <p class="muted">Records a consumer group could not handle, from every project. Redrive one kind after fixing its cause: each dead letter is written back to its topic at most once.</p>
      <Errors errors={counts.errors} onRetry={counts.reload} />
      {done === undefined ? null : (
        <p role="status" data-testid="redrive-done">
          {done}
        </p>
      )}
      {counts.data === undefined ? <Loading when={counts.loading} /> : counts.data.length === 0 ? <p class="muted">No dead letters.</p> : (
        <TableScroll label="Dead letters">
          <table data-testid="dead-letters">
            <thead>
              <tr>
                <th scope="col">Topic</th>
                <th scope="col">Consumer group</th>
                <th scope="col">Kind</th>
                <th scope="col">Error</th>
                <th scope="col" class="num">Count</th>
                <th scope="col">Newest</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {counts.data.map((row) => (
                <tr key={`${row.topic} ${row.group} ${row.error}`}>
                  <td>{row.topic}</td>
                  <td>{row.group}</td>
                  <td>{row.kind}</td>
                  <td>{row.error}</td>
                  <td class="num">{formatCount(row.count)}</td>
                  <td>{formatTime(row.newest)}</td>
                  <td>
                    <RedriveRow
                      row={row}
                      onDone={(result) => {
                        const skipped = result.already_redriven.length;
                        setDone(`Redrove ${plural(result.redriven.length, 'dead letter')}${skipped === 0 ? '' : `; ${formatCount(skipped)} redriven before ${skipped === 1 ? 'was' : 'were'} skipped`}.`);
                        counts.reload();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

/** Redrive: a dry run first says how many would go back, then the operator confirms. */
function RedriveRow({ row, onDone }: { row: DeadLetterCount; onDone: (result: RedriveResult) => void }) {
  const [plan, setPlan] = useState<RedriveResult | undefined>(undefined);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const filter = { topic: row.topic, group: row.group, error: row.match };
  const run = async (dryRun: boolean) => {
    setBusy(true);
    setErrors(undefined);
    try {
      const result = await redrive(filter, dryRun);
      if (dryRun) setPlan(result);
      else {
        setPlan(undefined);
        onDone(result);
      }
    } catch (error) {
      setErrors(messagesOf(error));
    } finally {
      setBusy(false);
    }
  };
  if (plan === undefined) {
    return (
      <>
        <button type="button" disabled={busy} onClick={() => void run(true)}>
          Redrive<span class="visually-hidden">: {row.error}</span>
        </button>
        <Errors errors={errors} />
      </>
    );
  }
  const question = plan.redriven.length === 0 ? `Nothing to redrive: ${plural(plan.already_redriven.length, 'dead letter')} already redriven.` : `Redrive ${plural(plan.redriven.length, 'dead letter')} to ${row.group}?${plan.already_redriven.length === 0 ? '' : ` ${formatCount(plan.already_redriven.length)} redriven before are skipped.`}`;
  return (
    <div class="confirm" role="group" aria-label={question}>
      <p>{question}</p>
      {plan.redriven.length === 0 ? null : (
        <button type="button" class="danger" disabled={busy} onClick={() => void run(false)}>
          Yes, redrive {formatCount(plan.redriven.length)}
        </button>
      )}
      <button type="button" disabled={busy} onClick={() => setPlan(undefined)}>
        Keep them
      </button>
      <Errors errors={errors} />
    </div>
  );
}
