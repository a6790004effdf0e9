import { DateTime } from 'luxon';

/** One dispatch of a local-time send: the devices whose zone reads the requested wall-clock time at `at`. */
export interface LocalSlot {
  index: number;
  count: number;
  /** ISO instant the slot is due. */
  at: string;
  zones: string[];
  /** Devices without a time zone use the project's default zone: this is its slot. */
  include_unset: boolean;
}

/**
 * Groups time zones by the instant their wall clock reads `local`
 * ("2026-12-01T09:00"): zones sharing an offset that day share a slot. Pure;
 * luxon resolves each zone's offset on that date (a time a DST change skips
 * is moved forward, as luxon does). Slots are in due order.
 */
export function planLocalSlots(local: string, zones: Iterable<string>, defaultZone: string): LocalSlot[] {
  const byInstant = new Map<number, Set<string>>();
  for (const zone of new Set([...zones, defaultZone])) {
    const at = DateTime.fromISO(local, { zone });
    if (!at.isValid) continue;
    const instant = at.toMillis();
    byInstant.set(instant, (byInstant.get(instant) ?? new Set()).add(zone));
  }
  const instants = [...byInstant.keys()].sort((a, b) => a - b);
  return instants.map((instant, index) => {
    const slotZones = [...byInstant.get(instant)!].sort();
    return { index, count: instants.length, at: new Date(instant).toISOString(), zones: slotZones, include_unset: slotZones.includes(defaultZone) };
  });
}

/** A send that waits: `send_at` after `now`, or any local-time send (its slots may be hours apart). */
export function isScheduledSend(request: { send_at?: string | undefined; send_at_local?: string | undefined }, now: number): boolean {
  if (request.send_at_local !== undefined) return true;
  return request.send_at !== undefined && Date.parse(request.send_at) > now;
}
