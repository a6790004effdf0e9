import type { ApiResponse } from './api-harness.ts';
import { waitFor } from './wait-for.ts';

type Requester = { request(method: string, path: string, options?: { key?: string; body?: unknown }): Promise<ApiResponse> };

/**
 * Creates the project's topics with its key (topics are the project's:
 * devices may only subscribe to existing ones unless the project lets them
 * create topics) and waits until each is readable, so a registration naming
 * it right after is not refused for a topic not yet projected.
 */
export async function createTopics(harness: Requester, apiKey: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const created = await harness.request('POST', '/api/v1/topics', { key: apiKey, body: { name } });
    if (created.status !== 201) throw new Error(`POST /api/v1/topics ${name} answered ${created.status}: ${JSON.stringify(created.body)}`);
  }
  await waitFor(`topics ${names.join(', ')} projected`, async () => {
    for (const name of names) {
      const found = await harness.request('GET', `/api/v1/topics?name=${encodeURIComponent(name)}`, { key: apiKey });
      if ((found.body?.data as unknown[] | undefined)?.length !== 1) return false;
    }
    return true;
  });
}
