import { describe, expect, it } from 'vitest';
import { anyDue, firstHeld, planWrites, type Held, type Origin } from './held-documents.ts';

interface Doc {
  _id: string;
  status: 'queued' | 'sent';
}

const hold = (doc: Doc) => doc.status === 'queued';
const origin = (offset: number, partition = 0): Origin => ({ topic: 'n', partition, offset });
const held = (doc: Doc, offset: number, until: number, partition = 0): Held<Doc> => ({ doc, topic: 'n', partition, offset, until });
const plan = (input: { changed?: Doc[]; inStore?: string[]; held?: Array<Held<Doc>>; origins?: Array<[string, Origin]>; now?: number; max?: number }) =>
  planWrites<Doc>({
    changed: new Map((input.changed ?? []).map((doc) => [doc._id, doc])),
    inStore: new Set(input.inStore ?? []),
    held: new Map((input.held ?? []).map((entry) => [entry.doc._id, entry])),
    origins: new Map(input.origins ?? []),
    hold,
    now: input.now ?? 1_000,
    holdMs: 500,
    ...(input.max === undefined ? {} : { max: input.max }),
  });

describe('planWrites', () => {
  it('holds a new document that is about to change, from its first record, for holdMs', () => {
    const result = plan({ changed: [{ _id: 'a', status: 'queued' }], origins: [['a', origin(7)]] });
    expect(result.insert).toEqual([]);
    expect(result.replace).toEqual([]);
    expect([...result.held.values()]).toEqual([held({ _id: 'a', status: 'queued' }, 7, 1_500)]);
  });

  it('inserts a new document that is already finished, and replaces one the store has', () => {
    const result = plan({
      changed: [
        { _id: 'a', status: 'sent' },
        { _id: 'b', status: 'queued' },
      ],
      inStore: ['b'],
      origins: [['a', origin(7)]],
    });
    expect(result.insert).toEqual([{ _id: 'a', status: 'sent' }]);
    expect(result.replace).toEqual([{ _id: 'b', status: 'queued' }]);
    expect(result.held.size).toBe(0);
  });

  it('inserts a held document once it is finished: one write for its whole start', () => {
    const result = plan({ changed: [{ _id: 'a', status: 'sent' }], held: [held({ _id: 'a', status: 'queued' }, 7, 1_500)], now: 1_200 });
    expect(result.insert).toEqual([{ _id: 'a', status: 'sent' }]);
    expect(result.replace).toEqual([]);
    expect(result.held.size).toBe(0);
  });

  it('keeps holding a changed or untouched document until its time is up, then inserts it as it is', () => {
    const before = held({ _id: 'a', status: 'queued' }, 7, 1_500);
    const untouched = held({ _id: 'b', status: 'queued' }, 3, 1_500, 1);
    const kept = plan({ changed: [{ _id: 'a', status: 'queued' }], held: [before, untouched], now: 1_499 });
    expect(kept.insert).toEqual([]);
    expect(kept.held.get('a')).toEqual(before);
    expect(kept.held.get('b')).toEqual(untouched);
    const due = plan({ changed: [{ _id: 'a', status: 'queued' }], held: [before, untouched], now: 1_500 });
    expect(due.insert).toEqual([
      { _id: 'a', status: 'queued' },
      { _id: 'b', status: 'queued' },
    ]);
    expect(due.held.size).toBe(0);
  });

  it('holds nothing without a hold rule, nor past the most it may hold', () => {
    const noRule = planWrites<Doc>({ changed: new Map([['a', { _id: 'a', status: 'queued' }]]), inStore: new Set(), held: new Map(), origins: new Map([['a', origin(1)]]), hold: undefined, now: 0 });
    expect(noRule.insert).toEqual([{ _id: 'a', status: 'queued' }]);
    const full = plan({
      changed: [
        { _id: 'a', status: 'queued' },
        { _id: 'b', status: 'queued' },
      ],
      origins: [
        ['a', origin(1)],
        ['b', origin(2)],
      ],
      max: 1,
    });
    expect([...full.held.keys()]).toEqual(['a']);
    expect(full.insert).toEqual([{ _id: 'b', status: 'queued' }]);
  });
});

describe('firstHeld and anyDue', () => {
  const entries = new Map([
    ['a', held({ _id: 'a', status: 'queued' }, 9, 2_000)],
    ['b', held({ _id: 'b', status: 'queued' }, 4, 1_000)],
    ['c', held({ _id: 'c', status: 'queued' }, 1, 3_000, 1)],
  ]);

  it('gives the first offset held per partition: the position the consumer may not commit past', () => {
    expect(firstHeld(entries, 'n', 0)).toBe(4);
    expect(firstHeld(entries, 'n', 1)).toBe(1);
    expect(firstHeld(entries, 'n', 2)).toBeUndefined();
    expect(firstHeld(entries, 'other', 0)).toBeUndefined();
  });

  it('says whether any held document is due', () => {
    expect(anyDue(entries, 999)).toBe(false);
    expect(anyDue(entries, 1_000)).toBe(true);
    expect(anyDue(new Map(), 5_000)).toBe(false);
  });
});
