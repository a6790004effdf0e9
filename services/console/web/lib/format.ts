/** Numbers and times as people read them, in the browser's locale. */
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/**
 * Which zone times are shown in: the browser's (default) or the project's
 * (GET /api/v1/project: the one zone every member of a project shares, UTC
 * unless set). Both kept in local storage (the project's zone as last read);
 * the toggle reloads the page, so every formatter below is built once with it.
 */
export type ZoneChoice = 'browser' | 'project';
export const ZONE_STORAGE_KEY = 'herald.console.zone';
export const PROJECT_ZONE_STORAGE_KEY = 'herald.console.project-zone';

const stored = (key: string): string | null => {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
};

export function zoneChoice(): ZoneChoice {
  return stored(ZONE_STORAGE_KEY) === 'project' ? 'project' : 'browser';
}

/** Whether the runtime knows the zone (a stored name is checked before a formatter is built with it). */
export function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The project's zone as last read from the API; UTC before that. */
export function projectZone(): string {
  const zone = stored(PROJECT_ZONE_STORAGE_KEY);
  return zone !== null && knownZone(zone) ? zone : 'UTC';
}

export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The IANA name of the zone shown (`Europe/Paris`, `UTC`). */
export function shownZone(choice: ZoneChoice = zoneChoice()): string {
  return choice === 'project' ? projectZone() : browserZone();
}

/** The zone formatters use: undefined is the browser's. */
export const formatZone = (): string | undefined => (zoneChoice() === 'project' ? projectZone() : undefined);

/** Minutes `zone` is ahead of UTC at `at` (Paris in winter: 60). */
export function zoneOffsetMinutes(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((wall - Math.floor(at / 1000) * 1000) / 60_000);
}

/** The instant a wall-clock time (`YYYY-MM-DDTHH:MM[:SS]`, read as UTC) is in `zone`; checked again at the result for a DST change between. */
export function wallTimeIn(zone: string, wallAsUtc: number): number {
  const first = wallAsUtc - zoneOffsetMinutes(zone, wallAsUtc) * 60_000;
  return wallAsUtc - zoneOffsetMinutes(zone, first) * 60_000;
}

const timeZone = formatZone();
// Every time shown says its zone (CET, GMT+2, UTC): a campaign manager in one zone reads a report another made elsewhere.
const dateTime = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short', timeZone });
// Chart ticks: the zone is said once, in the chart's caption (ZoneNote), not on every tick.
const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone });
const timeSeconds = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone });

export const formatCount = (value: number): string => integer.format(value);

/** 1,234 as is; 1.2M for chart axes. */
export const formatCompact = (value: number): string => (Math.abs(value) < 10_000 ? integer.format(value) : compact.format(value));

/** A share of a whole; a dash when the whole is zero. */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '–' : percent.format(part / whole);
}

export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '–';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : dateTime.format(at);
}

/** A UTC day (the Overview's day bars are UTC days, as its hourly counters are UTC hours): "May 1". */
const utcDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
export const formatUtcDay = (ms: number): string => `${utcDay.format(new Date(ms))} (UTC)`;
export const formatClock = (ms: number): string => time.format(new Date(ms));
export const formatClockSeconds = (ms: number): string => timeSeconds.format(new Date(ms));
export const formatDateTime = (ms: number): string => dateTime.format(new Date(ms));

/** "in 3 min", "in 2 h 5 min", "now": how far ahead an instant is. */
export function formatRelative(at: number, now: number): string {
  const minutes = Math.round((at - now) / 60_000);
  if (minutes <= 0) return 'any moment now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `in ${hours} h` : `in ${hours} h ${minutes % 60} min`;
}

/** Seconds as "90 s", "15 min", "2 h 30 min", "3 d 4 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}
