import { describe, expect, it } from 'vitest';
import { createEvent, newId } from '@herald/events';
import { AcceptedHere, findJustSent, JUST_SENT_MS, JUST_SENT_POLL_MS, JUST_SENT_WAIT_MS, justMinted, mergeUnprojected, newerFirst, uuidV7Time } from './just-sent.ts';

/** A clock that moves only when slept on. */
function fakeTime(start: number) {
  let now = start;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

describe('just-sent lookups', () => {
  it('reads the minting time of a UUID v7 and nothing else', () => {
    const before = Date.now();
    const time = uuidV7Time(newId());
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
    expect(uuidV7Time('0199a1c2-0000-7000-8000-000000000000')).toBe(0x0199a1c20000);
    expect(uuidV7Time('6f1f3a52-5c0e-4c43-9d0b-6a0a4e1c2b7d')).toBeUndefined(); // v4
    expect(uuidV7Time('not-an-id')).toBeUndefined();
  });

  it('counts an id as just minted only within JUST_SENT_MS, not far in the future', () => {
    const minted = uuidV7Time('0199a1c2-0000-7000-8000-000000000000')!;
    const id = '0199a1c2-0000-7000-8000-000000000000';
    expect(justMinted(id, minted)).toBe(true);
    expect(justMinted(id, minted + JUST_SENT_MS)).toBe(true);
    expect(justMinted(id, minted + JUST_SENT_MS + 1)).toBe(false);
    expect(justMinted(id, minted - 5_000)).toBe(false);
  });

  it('looks a just-minted id up again until it appears', async () => {
    const time = fakeTime(Date.now());
    const id = newId();
    let calls = 0;
    const found = await findJustSent(id, async () => (++calls >= 4 ? 'doc' : null), time);
    expect(found).toBe('doc');
    expect(calls).toBe(4);
  });

  it('gives up on a just-minted id after JUST_SENT_WAIT_MS, and answers an old id at once', async () => {
    const time = fakeTime(Date.now());
    let calls = 0;
    expect(await findJustSent(newId(), async () => (calls++, null), time)).toBeNull();
    expect(calls).toBe(1 + JUST_SENT_WAIT_MS / JUST_SENT_POLL_MS);
    calls = 0;
    expect(await findJustSent('0199a1c2-0000-7000-8000-000000000000', async () => (calls++, null), time)).toBeNull();
    expect(calls).toBe(1);
  });

  it('answers a miss from what this instance remembers before waiting, and the store first', async () => {
    const time = fakeTime(Date.now());
    let calls = 0;
    expect(await findJustSent(newId(), async () => (calls++, null), time, () => 'remembered')).toBe('remembered');
    expect(calls).toBe(1);
    expect(await findJustSent(newId(), async () => 'stored', time, () => 'remembered')).toBe('stored');
  });
});

describe('AcceptedHere', () => {
  const request = (project_id: string) => createEvent('NotificationRequested', { notification_id: newId(), title: 't', body: 'b', targets: ['news'] }, { project_id });

  it('remembers a request as the read model will first show it, for its own project only', () => {
    const here = new AcceptedHere();
    const event = request('p1');
    here.accepted(event);
    expect(here.find('p1', event.data.notification_id)).toMatchObject({ _id: event.data.notification_id, project_id: 'p1', status: 'queued', title: 't', targets: ['news'], counts: { targeted: 0 } });
    expect(here.find('p2', event.data.notification_id)).toBeUndefined();
    expect(here.find('p1', newId())).toBeUndefined();
  });

  it('keeps the answer to a change of what it remembers, and nothing of others', () => {
    const here = new AcceptedHere();
    const event = request('p1');
    here.accepted(event);
    const doc = here.find('p1', event.data.notification_id)!;
    here.changed({ ...doc, status: 'cancelled' });
    expect(here.find('p1', event.data.notification_id)?.status).toBe('cancelled');
    const stranger = { ...doc, _id: newId() };
    here.changed(stranger);
    expect(here.find('p1', stranger._id)).toBeUndefined();
  });

  it('keeps at most its bound', () => {
    const here = new AcceptedHere(2);
    const events = [request('p1'), request('p1'), request('p1')];
    for (const event of events) here.accepted(event);
    expect(events.map((event) => here.find('p1', event.data.notification_id) !== undefined)).toEqual([false, true, true]);
  });
});

describe('mergeUnprojected', () => {
  type Row = { _id: string; created_at: string };
  const row = (second: number, id: string): Row => ({ _id: id, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString() });
  const newestFirst = (rows: Row[]) => [...rows].sort((a, b) => (newerFirst(a, b) ? -1 : 1));

  it('pages the store and the unprojected documents as one newest-first list, reading only the window the page can reach', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let run = 0; run < 500; run += 1) {
      const rows = Array.from({ length: random(30) }, (_, i) => row(random(20), `id-${String(i).padStart(2, '0')}`));
      const unprojected = newestFirst(rows.filter(() => random(3) === 0));
      const store = newestFirst(rows.filter((r) => !unprojected.includes(r)));
      const [skip, limit] = [random(25), 1 + random(10)];
      const windowStart = Math.max(0, skip - unprojected.length);
      const window = store.slice(windowStart, skip + limit);
      const expected = newestFirst(rows).slice(skip, skip + limit);
      expect({ run, page: mergeUnprojected(window, windowStart, unprojected, skip, limit) }).toEqual({ run, page: expected });
    }
  });
});

describe('AcceptedHere.list', () => {
  it("lists a project's remembered notifications, in one status or all, newest first", () => {
    const accepted = new AcceptedHere();
    const request = (id: string, project: string, sendAt?: string) =>
      createEvent('NotificationRequested', { notification_id: id, title: 't', body: 'b', targets: ['x'], ...(sendAt === undefined ? {} : { send_at: sendAt }) }, { project_id: project });
    accepted.accepted(request('a', 'p1'));
    accepted.accepted(request('b', 'p1', new Date(Date.now() + 3_600_000).toISOString()));
    accepted.accepted(request('c', 'p2'));
    expect(accepted.list('p1', 'scheduled').map((doc) => doc._id)).toEqual(['b']);
    expect(accepted.list('p1', 'queued').map((doc) => doc._id)).toEqual(['a']);
    expect(accepted.list('p1').map((doc) => doc._id)).toEqual(['b', 'a']);
    expect(accepted.list('p3')).toEqual([]);
  });
});
