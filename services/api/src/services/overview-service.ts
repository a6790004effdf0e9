import type { ReadModelRegistry } from '@herald/mongo';
import { hourOf, outcomesSince, projectOutcomesRange, type ProjectOutcomesDocument } from '@herald/projections';
import type { DeviceService } from './device-service.ts';

const HOUR_MS = 3_600_000;
/** The current hour and the 23 before it. */
const HOURS = 24;

/** The console's Overview: devices by platform and status, outcomes and opens of the last 24 hours. */
export class OverviewService {
  readonly #readModels: ReadModelRegistry;
  readonly #devices: DeviceService;

  constructor(deps: { readModels: ReadModelRegistry; devices: DeviceService }) {
    this.#readModels = deps.readModels;
    this.#devices = deps.devices;
  }

  async overview(projectId: string, now = Date.now()) {
    const fromHour = hourOf(new Date(now - (HOURS - 1) * HOUR_MS).toISOString());
    const outcomes = await this.#readModels.collection<ProjectOutcomesDocument>('project_outcomes');
    // One document per partition of herald.notification-events: a handful, found by their `_id` prefix.
    const [devices, docs] = await Promise.all([
      this.#devices.counts(projectId),
      outcomes.find({ _id: projectOutcomesRange(projectId), project_id: projectId }, { projection: { hours: 1 } }).toArray(),
    ]);
    const { totals, hours } = outcomesSince(docs, fromHour);
    return {
      devices,
      outcomes_24h: totals,
      since: `${fromHour}:00:00.000Z`,
      hours: hours.map(({ hour, ...counts }) => ({ hour: `${hour}:00:00.000Z`, ...counts })),
    };
  }
}
