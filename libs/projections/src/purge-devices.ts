import { createEvent, type EventOf } from '@herald/events';
import type { DeviceQueries } from '@herald/mongo';

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
  devices: Pick<DeviceQueries, 'deletedDeviceIds'>,
  projectId: string,
  correlationId?: string,
): Promise<{ events: Array<EventOf<'DevicePurged'>>; more: boolean }> {
  const deleted = await devices.deletedDeviceIds(projectId, PURGE_PAGE + 1);
  const context = { project_id: projectId, correlation_id: correlationId };
  const events = deleted.slice(0, PURGE_PAGE).map((deviceId) => createEvent('DevicePurged', { device_id: deviceId }, context));
  return { events, more: deleted.length > PURGE_PAGE };
}
