import type { CampaignCaps } from '@herald/events';

export type FrequencyCap = NonNullable<CampaignCaps['frequency_cap']>;
export type QuietHoursSetting = Omit<NonNullable<CampaignCaps['quiet_hours']>, 'timezone'>;

const CLOCK = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const WINDOW = /^([1-9][0-9]*)(s|m|h|d)?$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;
/** The longest cap window: a month (a cap's state keeps one window of pushes per device or user). */
export const MAX_CAP_WINDOW_SECONDS = 31 * 86_400;
export const MAX_CAP = 1_000;

/** "90s", "15m", "24h", "7d" or plain seconds → seconds; undefined when it is not one. */
export function windowSeconds(text: string): number | undefined {
  const match = WINDOW.exec(text.trim());
  if (match === null) return undefined;
  return Number(match[1]) * UNIT_SECONDS[(match[2] ?? 's') as keyof typeof UNIT_SECONDS];
}

/**
 * A frequency cap from its parts (pure): every problem named by its field,
 * as `{"errors": [...]}` lists them.
 */
export function parseFrequencyCap(input: { max: string | number; window: string | number; per?: string | undefined; on_cap?: string | undefined }): { cap: FrequencyCap } | { errors: string[] } {
  const errors: string[] = [];
  const max = Number(input.max);
  if (!Number.isInteger(max) || max < 1 || max > MAX_CAP) errors.push(`max: ${String(input.max)} must be a whole number of pushes from 1 to ${MAX_CAP}`);
  const window = typeof input.window === 'number' ? input.window : windowSeconds(input.window);
  if (window === undefined || !Number.isInteger(window) || window < 1 || window > MAX_CAP_WINDOW_SECONDS) {
    errors.push(`window: ${String(input.window)} must be a duration like 90s, 15m, 24h or 7d, at most ${MAX_CAP_WINDOW_SECONDS / 86_400}d`);
  }
  const per = input.per ?? 'device';
  if (per !== 'device' && per !== 'user') errors.push(`per: ${per} must be device or user`);
  const onCap = input.on_cap ?? 'drop';
  if (onCap !== 'drop' && onCap !== 'defer') errors.push(`on_cap: ${onCap} must be drop or defer`);
  if (errors.length > 0) return { errors };
  return { cap: { max, window_seconds: window!, per: per as FrequencyCap['per'], on_cap: onCap as FrequencyCap['on_cap'] } };
}

/** Quiet hours from "HH:mm-HH:mm" (start-end, in each device's own zone; start after end spans midnight), pure. */
export function parseQuietHours(text: string): { quiet: QuietHoursSetting } | { errors: string[] } {
  const [start, end, ...rest] = text.split('-').map((part) => part.trim());
  const errors: string[] = [];
  if (rest.length > 0 || start === undefined || end === undefined) return { errors: [`quiet_hours: ${text} must be HH:mm-HH:mm (e.g. 22:00-08:00)`] };
  if (!CLOCK.test(start)) errors.push(`quiet_hours.start: ${start} must be HH:mm (00:00 to 23:59)`);
  if (!CLOCK.test(end)) errors.push(`quiet_hours.end: ${end} must be HH:mm (00:00 to 23:59)`);
  if (errors.length === 0 && start === end) errors.push('quiet_hours: start and end are equal (an empty window); use off to remove quiet hours');
  return errors.length > 0 ? { errors } : { quiet: { start, end } };
}

/** How a rule reads in receipts (`rule`) and logs. */
export function capRule(cap: FrequencyCap): string {
  return `cap ${cap.max}/${cap.window_seconds}s per ${cap.per}`;
}
