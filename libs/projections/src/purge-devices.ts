import { createEvent, type EventOf } from '@herald/events';
import type { Collection } from '@herald/mongo';
import type { DeviceDocument } from '@herald/read-models';

/** Devices purged per call (API and CLI alike): one publish of that many small events. */
export const PURGE_PAGE = 1_000;

/**
 * What purging a project's deleted devices publishes: one DevicePurged for
 * each device the project deleted (DeviceUnregistered; provider
 * deactivations are not deletions), oldest first, at most PURGE_PAGE; and
 * whether deleted devices are left for another call. Applying the events
 * removes the devices from the devices read model and the audience index
 * (devices.ts, libs/audience-index); receipts are the ledger's and stay.
 */
export async function purgeDeletedDevices(
  devices: Collection<DeviceDocument>,
  projectId: string,
  correlationId?: string,
): Promise<{ events: Array<EventOf<'DevicePurged'>>; more: boolean }> {
  const deleted = await devices
    .find({ project_id: projectId, status: 'inactive', 'deactivation.reason': 'Unregistered' })
    .sort({ created_at: 1, _id: 1 })
    .project<Pick<DeviceDocument, '_id'>>({ _id: 1 })
    .limit(PURGE_PAGE + 1)
    .toArray();
  const context = { project_id: projectId, correlation_id: correlationId };
  const events = deleted.slice(0, PURGE_PAGE).map((device) => createEvent('DevicePurged', { device_id: device._id }, context));
  return { events, more: deleted.length > PURGE_PAGE };
}
