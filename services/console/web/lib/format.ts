/** Numbers and times as people read them, in the browser's locale. */
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/**
 * Which zone times are shown in: the browser's (default) or UTC, the one
 * zone every member of a project shares (projects have no zone setting of
 * their own). Kept in local storage; the toggle reloads the page, so every
 * formatter below is built once with it.
 */
export type ZoneChoice = 'browser' | 'utc';
export const ZONE_STORAGE_KEY = 'herald.console.zone';

export function zoneChoice(): ZoneChoice {
  try {
    return globalThis.localStorage?.getItem(ZONE_STORAGE_KEY) === 'utc' ? 'utc' : 'browser';
  } catch {
    return 'browser';
  }
}

/** The IANA name of the zone shown (`Europe/Paris`, `UTC`). */
export function shownZone(choice: ZoneChoice = zoneChoice()): string {
  return choice === 'utc' ? 'UTC' : Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const timeZone = zoneChoice() === 'utc' ? 'UTC' : undefined;
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
