import { deviceIdFor } from '@herald/events';
import type { DeviceDocument } from '@herald/projections';

/** An active device read-model document, as the projector writes it (for the fan-out's integration tests). */
export function deviceDoc(projectId: string, token: string, n: number, metadata: Record<string, string>): DeviceDocument {
  const now = new Date().toISOString();
  return {
    _id: deviceIdFor(projectId, token),
    project_id: projectId,
    position: { partition: 0, offset: n },
    token,
    platform: n % 2 === 0 ? 'ios' : 'android',
    status: 'active',
    metadata,
    identifiers: {},
    identifier_values: [],
    topics: [],
    created_at: now,
    updated_at: now,
    registered_at: now,
  };
}
