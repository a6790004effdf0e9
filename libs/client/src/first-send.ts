// The example of libs/client/README.md, verbatim between the markers (a unit
// test compares them; an e2e test runs it against a real stack).
import type { components, HeraldClient } from './index.ts';

type Receipt = components['schemas']['def-2'];

// README example start
/** Registers a device, sends it a notification, and follows the notification until its receipts are in. */
export async function firstSend(herald: HeraldClient, projectId: string, apnsToken: string): Promise<Receipt[]> {
  // A device registers itself (no key needed); its id is derived from the project and the token.
  const registered = await herald.POST('/api/v1/devices', {
    body: { project_id: projectId, token: apnsToken, platform: 'ios', topics: [] },
  });
  if (registered.error !== undefined) throw new Error(registered.error.errors.join('; '));
  const deviceId = registered.data.data.id;

  // The server sends with the project's key: a target string is a topic, a device id or a token.
  const sent = await herald.POST('/api/v1/notifications', {
    body: { notification: { title: 'Hello', body: 'From @herald/client', targets: [deviceId] } },
  });
  if (sent.error !== undefined) throw new Error(sent.error.errors.join('; '));
  const notificationId = sent.data.data.id;

  // Follow the notification until it is finished, then until its receipts (one per targeted device) are in.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
  for (;;) {
    const { data, error } = await herald.GET('/api/v1/notifications/{id}', { params: { path: { id: notificationId } } });
    if (error !== undefined) throw new Error(error.errors.join('; '));
    const { finished_at: finishedAt, counts } = data.data;
    if (finishedAt !== null && finishedAt !== undefined && counts !== undefined) {
      const receipts = await herald.GET('/api/v1/notifications/{id}/receipts', { params: { path: { id: notificationId }, query: { limit: 100 } } });
      if (receipts.error !== undefined) throw new Error(receipts.error.errors.join('; '));
      if (receipts.data.pagination.count === counts.targeted) return receipts.data.data;
    }
    await pause();
  }
}
// README example end
