import type { paths } from '@herald/client';
import { api, dataOf } from './client.ts';

export type Device = paths['/api/v1/devices/{id}']['get']['responses'][200]['content']['application/json']['data'];
export const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `key=value`: a metadata pair to search by (a key as metadata keys are: no '.', not starting with '$'). */
export function metadataPair(q: string): { key: string; value: string } | undefined {
  const match = /^([^=.$][^=.]*)=(.*)$/.exec(q);
  return match === null ? undefined : { key: match[1]!.trim(), value: match[2]!.trim() };
}

/** Devices matching `q` as an id, a token or an external (user) id, each asked of the API, or as `key=value` metadata; one list without repeats. */
export async function findDevices(q: string): Promise<Device[]> {
  const pair = metadataPair(q);
  if (pair !== undefined) return dataOf(await api.GET('/api/v1/devices', { params: { query: { metadata_key: pair.key, metadata_value: pair.value, limit: 100 } } })).data;
  const [byId, byToken, byUser] = await Promise.all([
    DEVICE_ID.test(q) ? api.GET('/api/v1/devices/{id}', { params: { path: { id: q } } }).then((result) => (result.data === undefined ? [] : [result.data.data])) : Promise.resolve([]),
    api.GET('/api/v1/devices', { params: { query: { token: q } } }).then((result) => dataOf(result).data),
    api.GET('/api/v1/devices', { params: { query: { external_id: q, limit: 100 } } }).then((result) => dataOf(result).data),
  ]);
  const seen = new Set<string>();
  return [...byId, ...byToken, ...byUser].filter((device) => !seen.has(device.id) && seen.add(device.id));
}
