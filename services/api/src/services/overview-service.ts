import { ReportQueries, type ReadModelRegistry } from '@herald/mongo';
import { hoursUpTo, outcomesCountKey, outcomesOver } from '@herald/read-models';
import type { DeviceService } from './device-service.ts';

/** The current hour and the 23 before it. */
const HOURS = 24;

/** The console's Overview: devices by platform and status, outcomes and opens of the last 24 hours. */
export class OverviewService {
  readonly #reports: ReportQueries;
  readonly #devices: DeviceService;

  constructor(deps: { readModels: ReadModelRegistry; devices: DeviceService }) {
    this.#reports = new ReportQueries(deps.readModels);
    this.#devices = deps.devices;
  }

  async overview(projectId: string, now = Date.now()) {
    const day = hoursUpTo(now, HOURS);
    // The reports' counters: one small document per (hour, partition of herald.notification-events).
    const [devices, sums] = await Promise.all([this.#devices.counts(projectId), this.#reports.outcomeCounts(projectId, day.map(outcomesCountKey))]);
    const { totals, hours } = outcomesOver(sums, day);
    return {
      devices,
      outcomes_24h: totals,
      since: `${day[0]}:00:00.000Z`,
      hours: hours.map(({ hour, ...counts }) => ({ hour: `${hour}:00:00.000Z`, ...counts })),
    };
  }
}
