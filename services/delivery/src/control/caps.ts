import type { CampaignCaps } from '@herald/events';
import { quietHoursEnd } from './windows.ts';

/**
 * Frequency caps and quiet hours of campaign sends (pure; instants in ms,
 * the clock passed in). A cap key's state is the pushes it was admitted
 * for: one entry per notification (`n`), the instant it goes out (`at`,
 * later than now for a deferred push) and the device that took it (`d`).
 * A user's (external_id) several devices in one notification count once.
 */
export interface CapEntry {
  n: string;
  at: number;
  d: string;
  /** When the cap let the push go (before quiet hours moved it to `at`), when the cap deferred it: the user's other devices go no earlier. */
  c?: number;
}

export interface GateDevice {
  device_id: string;
  external_id?: string | undefined;
  timezone?: string | undefined;
}

export type GateDecision =
  | { kind: 'send' }
  | { kind: 'capped'; rule: string }
  | { kind: 'deferred'; until: number; rule: string; reason: 'FrequencyCap' | 'QuietHours' }
  | { kind: 'expired'; rule: string };

/** Deferred instants are rounded up to this, so one release batch takes many devices. */
export const DEFER_GRANULARITY_MS = 1_000;

/** The cap state key of a device: its user's under a per-user cap (when it has one), else its own. */
export function capKey(cap: NonNullable<CampaignCaps['frequency_cap']>, device: GateDevice): string {
  return cap.per === 'user' && device.external_id !== undefined ? `u:${device.external_id}` : `d:${device.device_id}`;
}

export function capRuleOf(cap: NonNullable<CampaignCaps['frequency_cap']>): string {
  return `cap ${cap.max}/${cap.window_seconds}s per ${cap.per}`;
}

export function quietRuleOf(quiet: NonNullable<CampaignCaps['quiet_hours']>, zone: string): string {
  return `quiet ${quiet.start}-${quiet.end} ${zone}`;
}

/**
 * The earliest instant at or after `from` at which one more push keeps every
 * sliding window of `windowMs` at `max` pushes or fewer, given the instants
 * already admitted (past ones, and future ones of deferred pushes).
 */
export function nextCapSlot(admitted: readonly number[], from: number, max: number, windowMs: number): number {
  const sorted = [...admitted].sort((a, b) => a - b);
  const fits = (at: number): boolean => {
    // Every window [s, s + windowMs) holding `at` starts in (at - windowMs, at]; the fullest ones start where one more instant has come in: at the first start, or when a later instant enters.
    const starts = [at - windowMs + 1, ...sorted.filter((instant) => instant > at && instant < at + windowMs).map((instant) => instant - windowMs + 1)];
    return starts.every((start) => sorted.filter((instant) => instant >= start && instant < start + windowMs).length < max);
  };
  const candidates = [from, ...sorted.map((instant) => instant + windowMs).filter((instant) => instant > from)].sort((a, b) => a - b);
  for (const candidate of candidates) if (fits(candidate)) return candidate;
  // Unreachable: past the last admitted instant plus the window, every window holds only the new push.
  return (sorted.at(-1) ?? from) + windowMs;
}

/** The instants a key's entries hold for other notifications (an entry of this one means it already counts). */
const othersOf = (entries: readonly CapEntry[], notificationId: string) => entries.filter((entry) => entry.n !== notificationId).map((entry) => entry.at);

const roundUp = (at: number): number => Math.ceil(at / DEFER_GRANULARITY_MS) * DEFER_GRANULARITY_MS;

export interface GateInput {
  notificationId: string;
  caps: CampaignCaps;
  now: number;
  /** max_duration's deadline: a push that could leave only later is `expired`. */
  deadline?: number | undefined;
  /** Cap state of the page's keys (absent key: no entries); updated in place with the pushes admitted. */
  state: Map<string, CapEntry[]>;
}

/**
 * What each device of a step's page becomes (pure, in page order): sent now,
 * dropped by the cap (`on_cap: drop`), deferred to when the cap window
 * allows (`on_cap: defer`) or quiet hours in its own zone end, or expired
 * when that is past the deadline. A device whose entry for this notification
 * is already recorded (a step run again after a lost transaction) gets the
 * same instant, so a re-run neither counts twice nor decides otherwise.
 * Entries older than the window are dropped from the keys it touches.
 */
export function gateDevices(devices: readonly GateDevice[], input: GateInput): GateDecision[] {
  const { caps, now, state, notificationId } = input;
  const cap = caps.frequency_cap;
  const windowMs = cap === undefined ? 0 : cap.window_seconds * 1_000;
  return devices.map((device): GateDecision => {
    const zone = device.timezone ?? caps.quiet_hours?.timezone ?? 'UTC';
    const quietEnd = (at: number) => (caps.quiet_hours === undefined ? at : quietHoursEnd(at, zone, caps.quiet_hours));
    const key = cap === undefined ? undefined : capKey(cap, device);
    const entries = key === undefined ? [] : (state.get(key) ?? []).filter((entry) => entry.at > now - windowMs);
    const mine = entries.find((entry) => entry.n === notificationId && entry.d === device.device_id);
    const admitted = entries.find((entry) => entry.n === notificationId);
    let at: number;
    let rule: string | undefined;
    let capAt: number | undefined;
    if (mine !== undefined) {
      at = Math.max(now, mine.at);
    } else if (admitted !== undefined) {
      // One notification counts once per key: another device of the user was admitted for it; this one goes no earlier than the cap let that one, then keeps its own quiet hours.
      const allowed = Math.max(now, admitted.c ?? now);
      at = quietEnd(allowed);
      if (allowed > now) rule = capRuleOf(cap!);
      else if (at > now) rule = quietRuleOf(caps.quiet_hours!, zone);
    } else {
      at = quietEnd(now);
      if (at > now) rule = quietRuleOf(caps.quiet_hours!, zone);
      if (cap !== undefined) {
        const others = othersOf(entries, notificationId);
        for (let round = 0; round < 4; round += 1) {
          const slot = nextCapSlot(others, at, cap.max, windowMs);
          if (slot === at) break;
          if (cap.on_cap === 'drop') return { kind: 'capped', rule: capRuleOf(cap) };
          rule = capRuleOf(cap);
          capAt = roundUp(slot);
          // The window allows it at `slot`, unless that falls in the device's quiet hours: then at their end (checked again).
          at = quietEnd(capAt);
        }
      }
    }
    const ruleText = rule ?? (cap === undefined ? quietRuleOf(caps.quiet_hours!, zone) : capRuleOf(cap));
    // Never sent: not counted.
    if (at > now && input.deadline !== undefined && at > input.deadline) return { kind: 'expired', rule: ruleText };
    if (key !== undefined && admitted === undefined) entries.push({ n: notificationId, at, d: device.device_id, ...(capAt === undefined ? {} : { c: capAt }) });
    if (key !== undefined) state.set(key, entries);
    if (at <= now) return { kind: 'send' };
    return { kind: 'deferred', until: at, rule: ruleText, reason: ruleText.startsWith('cap') ? 'FrequencyCap' : 'QuietHours' };
  });
}
