import type { ApiResponse } from './api-harness.ts';
import { waitFor } from './wait-for.ts';

type Requester = { request(method: string, path: string, options?: { key?: string; body?: unknown }): Promise<ApiResponse> };

/**
 * Registers one device per token through the API (twenty at a time), each
 * with `fields` (platform, topics, …), and waits until the project's device
 * list counts `tokens.length` devices, so a send right after targets them
 * all. For a project with no other devices. Answers each token's device id.
 */
export async function registerDevices(
  harness: Requester,
  project: { id: string; api_key: string },
  tokens: readonly string[],
  fields: Record<string, unknown>,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (let at = 0; at < tokens.length; at += 20) {
    await Promise.all(
      tokens.slice(at, at + 20).map(async (token) => {
        const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, ...fields } });
        if (response.status !== 201) throw new Error(`POST /api/v1/devices ${token} answered ${response.status}: ${JSON.stringify(response.body)}`);
        ids.set(token, (response.body!.data as { id: string }).id);
      }),
    );
  }
  const projected = async () => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key })).body?.pagination as { count: number } | undefined)?.count;
  await waitFor('devices projected', async () => (await projected()) === tokens.length, 120_000);
  return ids;
}
