import { readFileSync, statSync } from 'node:fs';
import { systemClock, type Clock } from '@herald/retry';

/**
 * A clock tests can move (HERALD_CLOCK_FILE): the file holds milliseconds to
 * add to the real time ("86400000" is a day ahead); absent or empty, 0. It is
 * re-read when it changes, so a test moves every process's clock at once by
 * writing it. Only schedule decisions use it (when a send is due, how far
 * ahead a send_at may be); event times, leases and timeouts stay real.
 */
export function fileClock(file: string | undefined): Clock {
  if (file === undefined) return systemClock;
  let offset = 0;
  let seenMtime = -1;
  const refresh = () => {
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      offset = 0;
      return;
    }
    if (mtime === seenMtime) return;
    seenMtime = mtime;
    const text = readFileSync(file, 'utf8').trim();
    const parsed = text === '' ? 0 : Number(text);
    offset = Number.isFinite(parsed) ? parsed : 0;
  };
  return {
    ...systemClock,
    now() {
      refresh();
      return Date.now() + offset;
    },
  };
}

/** Whether the runtime knows this IANA time zone name (Intl throws a RangeError for names it does not). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
