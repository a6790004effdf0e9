/** The Overview's windows: the API counts up to 720 hours (30 days); longer windows are charted per day. */
export const OVERVIEW_WINDOWS = [
  { hours: 24, label: 'Last 24 hours' },
  { hours: 168, label: 'Last 7 days' },
  { hours: 720, label: 'Last 30 days' },
] as const;

export type OverviewHours = (typeof OVERVIEW_WINDOWS)[number]['hours'];

/** The window a `?hours=` value names, the last day when it names none of them (pure). */
export function overviewWindow(value: string | undefined): (typeof OVERVIEW_WINDOWS)[number] {
  return OVERVIEW_WINDOWS.find((window) => String(window.hours) === value) ?? OVERVIEW_WINDOWS[0];
}

export interface HourCounts {
  hour: string;
  delivered: number;
  failed: number;
  invalid: number;
  opened: number;
}

/**
 * The chart's bars (pure): the hours as the API lists them for a day, summed
 * per UTC day for a longer window (720 hourly bars would be unreadable). The
 * API lists only hours with any outcome, so days without any have no bar.
 */
export function chartBuckets(hours: readonly HourCounts[], windowHours: number): Array<{ at: number; span: 'hour' | 'day' } & Omit<HourCounts, 'hour'>> {
  if (windowHours <= 24) return hours.map(({ hour, ...counts }) => ({ at: Date.parse(hour), span: 'hour', delivered: counts.delivered, failed: counts.failed, invalid: counts.invalid, opened: counts.opened }));
  const days = new Map<string, { at: number; span: 'day'; delivered: number; failed: number; invalid: number; opened: number }>();
  for (const item of hours) {
    const day = item.hour.slice(0, 10);
    const bucket = days.get(day) ?? { at: Date.parse(`${day}T00:00:00.000Z`), span: 'day' as const, delivered: 0, failed: 0, invalid: 0, opened: 0 };
    bucket.delivered += item.delivered;
    bucket.failed += item.failed;
    bucket.invalid += item.invalid;
    bucket.opened += item.opened;
    days.set(day, bucket);
  }
  return [...days.values()].sort((a, b) => a.at - b.at);
}
