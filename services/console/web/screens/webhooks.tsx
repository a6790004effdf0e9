import { useState } from 'preact/hooks';
import { api, dataOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading, TableScroll } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { formatCount, formatTime } from '../lib/format.ts';
import { WebhookActions, WebhookCreate, type ShownSecret } from './webhook-forms.tsx';

/** The project's webhooks with how far behind each is and its last failure (GET /api/v1/webhooks; docs/webhooks.md). */
export function Webhooks() {
  useTitle('Webhooks');
  const webhooks = useLoad(async () => dataOf(await api.GET('/api/v1/webhooks')), []);
  const [secret, setSecret] = useState<ShownSecret | undefined>(undefined);
  const created = (shown: ShownSecret) => {
    setSecret(shown);
    webhooks.reload();
  };
  return (
    <section>
      <h1>Webhooks</h1>
      {secret === undefined ? null : (
        <div class="secret" role="status" data-testid="webhook-secret">
          <p>
            {secret.rotated ? 'New signing secret' : 'Signing secret'} for {secret.url}: <code class="mono wrap">{secret.secret}</code>
          </p>
          <p>Shown once: copy it into the receiver now ({secret.rotated ? 'the old one keeps signing for a day' : 'it verifies every request'}; docs/webhooks.md).</p>
        </div>
      )}
      <Errors errors={webhooks.errors} onRetry={webhooks.reload} />
      {webhooks.data === undefined ? <Loading when={webhooks.loading} /> : webhooks.data.data.length === 0 ? <p class="muted">No webhooks yet.</p> : (
        <TableScroll label="Webhooks">
          <table data-testid="webhooks">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col" class="num">Lag</th>
                <th scope="col" class="num">Delivered</th>
                <th scope="col" class="num">Dead letters</th>
                <th scope="col">Last failure</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.data.map((webhook) => (
                <tr key={webhook.id}>
                  <td>
                    {webhook.url}
                    {webhook.paused ? (
                      <>
                        {' '}
                        <span class="badge badge-paused" data-testid="webhook-paused">paused</span>
                      </>
                    ) : null}
                  </td>
                  <td>{webhook.event_types.length === 8 ? 'all' : webhook.event_types.join(', ')}</td>
                  <td class="num" data-testid="webhook-lag">{formatCount(webhook.status.lag)}</td>
                  <td class="num">{formatCount(webhook.status.delivered_events)}</td>
                  <td class="num">{formatCount(webhook.status.dead_letters)}</td>
                  <td data-testid="webhook-last-failure">
                    {webhook.status.last_failure === null ? <span class="muted">none</span> : `${formatTime(webhook.status.last_failure.at)}: ${webhook.status.last_failure.error}`}
                  </td>
                  <td>
                    <WebhookActions id={webhook.id} url={webhook.url} paused={webhook.paused} onSecret={setSecret} onChanged={webhooks.reload} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <WebhookCreate onCreated={created} />
    </section>
  );
}
