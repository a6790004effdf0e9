import { DateTime } from 'luxon';

/**
 * Window arithmetic for frequency caps and quiet hours (pure; instants in
 * milliseconds, zones as IANA names, luxon for the offsets of each day).
 */

/** The start of the fixed window of `windowMs` holding `at` (windows aligned to the epoch). */
export function windowStart(at: number, windowMs: number): number {
  return Math.floor(at / windowMs) * windowMs;
}

/**
 * Whether one more push to a device fits a cap of `max` per `windowMs`,
 * given the instants of its earlier pushes (a sliding window); if not, the
 * first instant at which it fits.
 */
export function capDecision(sentAt: readonly number[], at: number, max: number, windowMs: number): { fits: true } | { fits: false; eligibleAt: number } {
  const inWindow = sentAt.filter((instant) => instant > at - windowMs && instant <= at).sort((a, b) => a - b);
  if (inWindow.length < max) return { fits: true };
  // The oldest push that must leave the window for one more to fit.
  return { fits: false, eligibleAt: inWindow[inWindow.length - max]! + windowMs };
}

/** Quiet hours as wall-clock times "HH:mm" in the device's zone; `start` after `end` spans midnight. */
export interface QuietHours {
  start: string;
  end: string;
}

const minutesOf = (clock: string): number => {
  const [hours, minutes] = clock.split(':').map(Number);
  return hours! * 60 + minutes!;
};

/**
 * When a push at `at` to a device in `zone` may leave: `at` itself outside
 * quiet hours, else the end of the quiet window (that morning, in the
 * device's own zone). An unknown zone counts as UTC.
 */
export function quietHoursEnd(at: number, zone: string, quiet: QuietHours): number {
  let local = DateTime.fromMillis(at, { zone });
  if (!local.isValid) local = DateTime.fromMillis(at, { zone: 'UTC' });
  const now = local.hour * 60 + local.minute;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return at;
  const spansMidnight = start > end;
  const quietNow = spansMidnight ? now >= start || now < end : now >= start && now < end;
  if (!quietNow) return at;
  const endDay = spansMidnight && now >= start ? local.plus({ days: 1 }) : local;
  return endDay.set({ hour: Math.floor(end / 60), minute: end % 60, second: 0, millisecond: 0 }).toMillis();
}
