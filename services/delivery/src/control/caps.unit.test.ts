import { describe, expect, it } from 'vitest';
import type { CampaignCaps } from '@herald/events';
import { gateDevices, nextCapSlot, type CapEntry } from './caps.ts';
import { isDuplicateKey } from './cap-store.ts';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const noon = at('2026-01-10T12:00:00Z');

describe('nextCapSlot', () => {
  it('is now while the window has room, else when the oldest push that must leave has left', () => {
    expect(nextCapSlot([], noon, 1, HOUR)).toBe(noon);
    expect(nextCapSlot([noon - 10 * 60_000], noon, 2, HOUR)).toBe(noon);
    expect(nextCapSlot([noon - 10 * 60_000], noon, 1, HOUR)).toBe(noon + 50 * 60_000);
    expect(nextCapSlot([noon - 50 * 60_000, noon - 10 * 60_000], noon, 2, HOUR)).toBe(noon + 10 * 60_000);
  });

  it('counts pushes admitted for later (deferred) in the windows around them', () => {
    // One push already waits for 12:30: another cannot go at 12:00 (a window holds both) nor before 13:30.
    expect(nextCapSlot([noon + 30 * 60_000], noon, 1, HOUR)).toBe(noon + 90 * 60_000);
    expect(nextCapSlot([noon + 30 * 60_000], noon, 2, HOUR)).toBe(noon);
  });
});

const device = (id: string, extra: { external_id?: string; timezone?: string } = {}) => ({ device_id: id, ...extra });

describe('gateDevices', () => {
  const perUser = (onCap: 'drop' | 'defer'): CampaignCaps => ({ frequency_cap: { max: 1, window_seconds: 3_600, per: 'user', on_cap: onCap } });

  it('drops a user over the cap (all of its devices) and counts a notification once per user', () => {
    const state = new Map<string, CapEntry[]>([['u:ann', [{ n: 'earlier', at: noon - 60_000, d: 'a1' }]]]);
    const decisions = gateDevices([device('a1', { external_id: 'ann' }), device('a2', { external_id: 'ann' }), device('b1', { external_id: 'bob' }), device('b2', { external_id: 'bob' }), device('c')], {
      notificationId: 'n',
      caps: perUser('drop'),
      now: noon,
      state,
    });
    expect(decisions.map((decision) => decision.kind)).toEqual(['capped', 'capped', 'send', 'send', 'send']);
    expect(decisions[0]).toEqual({ kind: 'capped', rule: 'cap 1/3600s per user' });
    // Bob took one push (once for both devices); a device without a user is counted by itself.
    expect(state.get('u:bob')).toEqual([{ n: 'n', at: noon, d: 'b1' }]);
    expect(state.get('d:c')).toEqual([{ n: 'n', at: noon, d: 'c' }]);
    expect(state.get('u:ann')).toEqual([{ n: 'earlier', at: noon - 60_000, d: 'a1' }]);
  });

  it('defers a capped user to when the window allows, and a later campaign behind that', () => {
    const state = new Map<string, CapEntry[]>([['u:ann', [{ n: 'earlier', at: noon - 60_000, d: 'a1' }]]]);
    const first = gateDevices([device('a1', { external_id: 'ann' })], { notificationId: 'n1', caps: perUser('defer'), now: noon, state });
    expect(first).toEqual([{ kind: 'deferred', until: noon + HOUR - 60_000, rule: 'cap 1/3600s per user', reason: 'FrequencyCap' }]);
    const second = gateDevices([device('a2', { external_id: 'ann' })], { notificationId: 'n2', caps: perUser('defer'), now: noon, state });
    expect(second).toEqual([{ kind: 'deferred', until: noon + 2 * HOUR - 60_000, rule: 'cap 1/3600s per user', reason: 'FrequencyCap' }]);
  });

  it('decides the same when a step runs again (its entries recorded), without counting twice', () => {
    const state = new Map<string, CapEntry[]>([['u:ann', [{ n: 'earlier', at: noon - 60_000, d: 'a1' }]]]);
    const input = { notificationId: 'n', caps: perUser('defer'), now: noon, state };
    const once = gateDevices([device('a1', { external_id: 'ann' }), device('b1', { external_id: 'bob' })], input);
    const again = gateDevices([device('a1', { external_id: 'ann' }), device('b1', { external_id: 'bob' })], { ...input, now: noon + 5 });
    expect(again.map((decision) => decision.kind)).toEqual(once.map((decision) => decision.kind));
    expect(state.get('u:ann')).toHaveLength(2);
    expect(state.get('u:bob')).toHaveLength(1);
  });

  it('expires a push the window (or quiet hours) would allow only after max_duration', () => {
    const state = new Map<string, CapEntry[]>([['u:ann', [{ n: 'earlier', at: noon - 60_000, d: 'a1' }]]]);
    const decisions = gateDevices([device('a1', { external_id: 'ann' })], { notificationId: 'n', caps: perUser('defer'), now: noon, deadline: noon + 10 * 60_000, state });
    expect(decisions).toEqual([{ kind: 'expired', rule: 'cap 1/3600s per user' }]);
    // Never sent: not counted.
    expect(state.get('u:ann')).toHaveLength(1);
  });

  it("defers a push in a device's quiet hours to its own morning, each in its zone", () => {
    const caps: CampaignCaps = { quiet_hours: { start: '22:00', end: '08:00' } };
    // 2026-01-10T23:30Z: 00:30 in Paris (quiet), 18:30 in New York (not), 08:30 in Tokyo (not), 23:30 UTC for a device with no zone (quiet).
    const now = at('2026-01-10T23:30:00Z');
    const decisions = gateDevices([device('p', { timezone: 'Europe/Paris' }), device('ny', { timezone: 'America/New_York' }), device('t', { timezone: 'Asia/Tokyo' }), device('u')], { notificationId: 'n', caps, now, state: new Map() });
    expect(decisions).toEqual([
      { kind: 'deferred', until: at('2026-01-11T07:00:00Z'), rule: 'quiet 22:00-08:00 Europe/Paris', reason: 'QuietHours' },
      { kind: 'send' },
      { kind: 'send' },
      { kind: 'deferred', until: at('2026-01-11T08:00:00Z'), rule: 'quiet 22:00-08:00 UTC', reason: 'QuietHours' },
    ]);
    // A project zone stands in for devices without one.
    const withZone = gateDevices([device('u')], { notificationId: 'n', caps: { quiet_hours: { start: '22:00', end: '08:00', timezone: 'Asia/Tokyo' } }, now, state: new Map() });
    expect(withZone).toEqual([{ kind: 'send' }]);
  });

  it('moves a push the cap defers into quiet hours on to their end, and counts it then', () => {
    const caps: CampaignCaps = { frequency_cap: { max: 1, window_seconds: 3_600, per: 'device', on_cap: 'defer' }, quiet_hours: { start: '22:00', end: '08:00' } };
    const now = at('2026-01-10T21:30:00Z');
    const state = new Map<string, CapEntry[]>([['d:x', [{ n: 'earlier', at: now - 30 * 60_000, d: 'x' }]]]);
    // The window allows 22:00 UTC, inside quiet hours: 08:00 the next morning.
    expect(gateDevices([device('x', { timezone: 'UTC' })], { notificationId: 'n', caps, now, state })).toEqual([{ kind: 'deferred', until: at('2026-01-11T08:00:00Z'), rule: 'cap 1/3600s per device', reason: 'FrequencyCap' }]);
    expect(state.get('d:x')?.at(-1)).toEqual({ n: 'n', at: at('2026-01-11T08:00:00Z'), d: 'x', c: at('2026-01-10T22:00:00Z') });
  });

  it("sends a user's other device (gated by another step) no earlier than the cap let the first, in its own quiet hours", () => {
    const caps: CampaignCaps = { frequency_cap: { max: 1, window_seconds: 3_600, per: 'user', on_cap: 'defer' }, quiet_hours: { start: '22:00', end: '08:00' } };
    const state = new Map<string, CapEntry[]>([['u:ann', [{ n: 'earlier', at: noon - 60_000, d: 'a1' }]]]);
    // One step gates Ann's Paris device, another (another partition) later her Tokyo one: it is 21:00 in Tokyo, so the cap's 12:59Z is 21:59 there, before its quiet hours.
    const first = gateDevices([device('a-paris', { external_id: 'ann', timezone: 'Europe/Paris' })], { notificationId: 'n', caps, now: noon, state });
    const second = gateDevices([device('a-tokyo', { external_id: 'ann', timezone: 'Asia/Tokyo' })], { notificationId: 'n', caps, now: noon + 1_000, state });
    expect(first).toEqual([{ kind: 'deferred', until: noon + HOUR - 60_000, rule: 'cap 1/3600s per user', reason: 'FrequencyCap' }]);
    expect(second).toEqual([{ kind: 'deferred', until: noon + HOUR - 60_000, rule: 'cap 1/3600s per user', reason: 'FrequencyCap' }]);
    // Counted once.
    expect(state.get('u:ann')).toHaveLength(2);
  });

  it('forgets pushes older than the window', () => {
    const state = new Map<string, CapEntry[]>([['d:x', [{ n: 'old', at: noon - 2 * HOUR, d: 'x' }]]]);
    const decisions = gateDevices([device('x')], { notificationId: 'n', caps: { frequency_cap: { max: 1, window_seconds: 3_600, per: 'device', on_cap: 'drop' } }, now: noon, state });
    expect(decisions).toEqual([{ kind: 'send' }]);
    expect(state.get('d:x')).toEqual([{ n: 'n', at: noon, d: 'x' }]);
  });
});

describe('cap state writes', () => {
  it('knows a duplicate key (a concurrent first insert), alone or in a bulk write', () => {
    expect(isDuplicateKey({ code: 11000 })).toBe(true);
    expect(isDuplicateKey({ code: 1, writeErrors: [{ code: 11000 }] })).toBe(true);
    expect(isDuplicateKey({ code: 2 })).toBe(false);
    expect(isDuplicateKey(new Error('boom'))).toBe(false);
    expect(isDuplicateKey(null)).toBe(false);
  });
});
