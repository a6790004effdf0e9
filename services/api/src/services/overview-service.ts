import { ReportQueries, type ReadModelRegistry } from '@herald/mongo';
import { hoursUpTo, outcomeKeysOf, outcomesOver } from '@herald/read-models';
import { OVERVIEW_DEFAULT_HOURS } from '../schemas/console-reads.ts';
import type { DeviceService } from './device-service.ts';

/** `outcomes_24h`: the current hour and the 23 before it, whatever the window. */
const DAY_HOURS = 24;

/** What the Overview counts: the last `hours` UTC hours (the route bounds them), test sends only when asked. */
export interface OverviewWindow {
  hours?: number | undefined;
  includeTests?: boolean | undefined;
}

/** The console's Overview: devices by platform and status, outcomes and opens of the last 24 hours or a longer window. */
export class OverviewService {
  readonly #reports: ReportQueries;
  readonly #devices: DeviceService;

  constructor(deps: { readModels: ReadModelRegistry; devices: DeviceService }) {
    this.#reports = new ReportQueries(deps.readModels);
    this.#devices = deps.devices;
  }

  async overview(projectId: string, window: OverviewWindow = {}, now = Date.now()) {
    const windowHours = window.hours ?? OVERVIEW_DEFAULT_HOURS;
    const includeTests = window.includeTests === true;
    // Read once, for the longer of the window and the last day: one small counter document per (key, partition of herald.notification-events).
    const read = hoursUpTo(now, Math.max(windowHours, DAY_HOURS));
    const keys = read.flatMap((hour) => outcomeKeysOf(hour, includeTests));
    const [devices, sums] = await Promise.all([this.#devices.counts(projectId), this.#reports.outcomeCounts(projectId, keys)]);
    const span = read.slice(-windowHours);
    const { totals, hours } = outcomesOver(sums, span, includeTests);
    return {
      devices,
      window_hours: windowHours,
      outcomes: totals,
      outcomes_24h: outcomesOver(sums, read.slice(-DAY_HOURS), includeTests).totals,
      since: `${span[0]}:00:00.000Z`,
      hours: hours.map(({ hour, ...counts }) => ({ hour: `${hour}:00:00.000Z`, ...counts })),
    };
  }
}
