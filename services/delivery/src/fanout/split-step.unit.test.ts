import { describe, expect, it } from 'vitest';
import { newId, type FanoutMessageV2 } from '@herald/events';
import { heldOutReports, splitContents, splitMakerFor, splitRows } from './split-step.ts';
import { withContents } from './content-step.ts';

const message = (split: FanoutMessageV2['split']): FanoutMessageV2 => ({ title: 'base', body: 'base', split });
const variants = [
  { name: 'A', title: 'Sale', body: 'Today only' },
  { name: 'B', title: 'Flash sale', body: 'Ends at midnight' },
];

/** Within 5 standard deviations of the binomial expectation (a fair split fails this about once in 3.5 million). */
function expectShare(count: number, n: number, share: number): void {
  expect(Math.abs(count - n * share)).toBeLessThan(5 * Math.sqrt(n * share * (1 - share)));
}

describe('splitRows over 12,000 real device ids (uuid v7, as Herald mints them)', () => {
  const notificationId = newId();
  const rows = Array.from({ length: 12_000 }, () => ({ device_id: newId(), token: 't', platform: 'android' as const, ordinal: 0 }));
  const split = splitMakerFor(message({ variants, holdout_percent: 10, test_percent: 30 }))!;
  const test = splitRows(split, notificationId, rows);

  it('sends each variant its share, holds the holdout out and leaves the remainder', () => {
    const byVariant = [0, 0];
    for (const index of test.variantOf.values()) byVariant[index]! += 1;
    expectShare(test.heldOut.length, rows.length, 0.1);
    expectShare(byVariant[0]!, rows.length, (0.9 * 0.3) / 2);
    expectShare(byVariant[1]!, rows.length, (0.9 * 0.3) / 2);
    expect(test.send.length).toBe(byVariant[0]! + byVariant[1]!);
  });

  it("the remainder's fan-out sends exactly the devices the test left, all with the winner", () => {
    const remainder = splitRows({ ...split, winner: 1 }, notificationId, rows);
    const taken = new Set([...test.send, ...test.heldOut].map((row) => row.device_id));
    expect(remainder.send.length).toBe(rows.length - taken.size);
    expect(remainder.send.every((row) => !taken.has(row.device_id))).toBe(true);
    expect(new Set(remainder.variantOf.values())).toEqual(new Set([1]));
  });

  it('assigns and renders the same way on every run (a replay, another instance): identical batches', () => {
    const again = splitMakerFor(message({ variants, holdout_percent: 10, test_percent: 30 }))!;
    const replayed = splitRows(again, notificationId, rows);
    expect(replayed.variantOf).toEqual(test.variantOf);
    const index = { rowsAt: () => [] };
    const batchOf = (maker: typeof split, parts: typeof test) =>
      withContents({ provider: 'fcm', sequence: 0, devices: parts.send.slice(0, 500).map((row) => ({ device_id: row.device_id, token: row.token })) }, splitContents(maker, index, 0, parts.send.slice(0, 500), parts.variantOf));
    expect(JSON.stringify(batchOf(again, replayed))).toBe(JSON.stringify(batchOf(split, test)));
  });
});

describe('variant contents', () => {
  it('carry each distinct variant once per batch, and each device its index and variant', () => {
    const split = splitMakerFor(message({ variants, holdout_percent: 0 }))!;
    const rows = Array.from({ length: 40 }, (_, index) => ({ device_id: `d${index}`, ordinal: index }));
    const parts = splitRows(split, 'n-1', rows);
    const index = { rowsAt: () => [] };
    const contents = splitContents(split, index, 0, parts.send, parts.variantOf);
    const batch = withContents({ provider: 'fcm', sequence: 0, devices: parts.send.map((row) => ({ device_id: row.device_id, token: 't' })) }, contents);
    expect(batch.contents).toHaveLength(2);
    for (const device of batch.devices) {
      const variant = parts.variantOf.get(device.device_id)!;
      expect(device.variant).toBe(variants[variant]!.name);
      expect(batch.contents![device.content!]!.title).toBe(variants[variant]!.title);
    }
  });
});

describe('template variants', () => {
  it('render per device from the pinned version, with the values the page read carried (the index is not read again)', () => {
    const template = { id: 't', name: 'promo', version: 2, content: { default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: '{{ pct }}% off' } }, variables: { pct: 20 } };
    const split = splitMakerFor(message({ variants: [variants[0]!, { name: 'B', template }], holdout_percent: 0 }))!;
    expect(split.templated).toBe(true);
    const rows = Array.from({ length: 40 }, (_, index) => ({ device_id: `d${index}`, ordinal: index, values: { metadata: { first_name: `Ana${index % 3}` } } }));
    const parts = splitRows(split, 'n-2', rows);
    const index = {
      rowsAt: () => {
        throw new Error('read again');
      },
    };
    const contents = splitContents(split, index, 0, parts.send, parts.variantOf);
    const inB = rows.filter((row) => parts.variantOf.get(row.device_id) === 1);
    for (const row of inB) expect(contents.get(row.device_id)).toMatchObject({ variant: 'B', locale: 'default', content: { title: `Hi Ana${row.ordinal % 3}`, body: '20% off' } });
    // Devices with the same values share one content object, variant included: nothing is made per device.
    const same = inB.filter((row) => row.ordinal % 3 === inB[0]!.ordinal % 3);
    expect(same.length).toBeGreaterThan(1);
    for (const row of same) expect(contents.get(row.device_id)).toBe(contents.get(same[0]!.device_id));
    const inA = rows.filter((row) => parts.variantOf.get(row.device_id) === 0);
    expect(contents.get(inA[0]!.device_id)).toMatchObject({ variant: 'A', content: { title: 'Sale', body: 'Today only' } });
    expect(contents.get(inA[1]!.device_id)).toBe(contents.get(inA[0]!.device_id));
  });

  it('literal variants alone read no device values', () => {
    const split = splitMakerFor(message({ variants, holdout_percent: 0 }))!;
    expect(split.templated).toBe(false);
    const rows = Array.from({ length: 10 }, (_, index) => ({ device_id: `d${index}`, ordinal: index }));
    const parts = splitRows(split, 'n-4', rows);
    const index = {
      rowsAt: () => {
        throw new Error('read');
      },
    };
    expect(splitContents(split, index, 0, parts.send, parts.variantOf).size).toBe(parts.send.length);
  });

  it("rows read without their values: the page's rows are read once for every template variant's devices, in ascending order (one range read, not one query per scattered row)", () => {
    const template = (name: string) => ({ id: name, name, version: 1, content: { default: { title: `${name} {{ device.metadata.first_name | default: "there" }}`, body: 'b' } }, variables: {} });
    const split = splitMakerFor(message({ variants: [{ name: 'A', template: template('a') }, { name: 'B', template: template('b') }], holdout_percent: 0 }))!;
    const rows = Array.from({ length: 200 }, (_, index) => ({ device_id: `d${index}`, ordinal: 1000 + index }));
    const parts = splitRows(split, 'n-3', rows);
    const read: number[][] = [];
    const index = { rowsAt: (_partition: number, ordinals: readonly number[]) => (read.push([...ordinals]), ordinals.map((ordinal) => (ordinal % 2 === 0 ? { metadata: { first_name: `Ana${ordinal}` } } : undefined) as never)) };
    const contents = splitContents(split, index, 0, parts.send, parts.variantOf);
    expect(read).toEqual([parts.send.map((row) => row.ordinal)]);
    for (const row of parts.send) {
      const name = parts.variantOf.get(row.device_id) === 0 ? 'a' : 'b';
      // A device gone from the index since the page was read renders with no values of its own.
      expect(contents.get(row.device_id)).toMatchObject({ variant: name.toUpperCase(), content: { title: `${name} ${row.ordinal % 2 === 0 ? `Ana${row.ordinal}` : 'there'}` } });
    }
  });
});

describe('heldOutReports', () => {
  it('reports the holdout held_out in batches numbered after the step, counted as targeted', () => {
    const rows = [
      { device_id: 'h1', token: 'a', platform: 'ios' as const, ordinal: 1 },
      { device_id: 'h2', token: 'b', platform: 'android' as const, ordinal: 2 },
    ];
    const progress = { step: 1, sequence: { apns: 3, fcm: 0 }, targeted: { apns: 5, fcm: 0 } };
    const { out, next } = heldOutReports(rows, progress, { maxDevices: 500, maxDeviceBytes: 100_000 }, (batch) => ({ data: { batch_id: `n:${batch.provider}:0:${batch.sequence}`, notification_id: 'n', provider: batch.provider, sequence: batch.sequence, message: { title: '', body: '' }, devices: batch.devices } }) as never, { project_id: 'p' });
    expect(next.sequence).toEqual({ apns: 4, fcm: 1 });
    expect(next.targeted).toEqual({ apns: 6, fcm: 1 });
    const reports = out.map((item) => item.event.data as { batch_id: string; results: Array<{ outcome: string }> });
    expect(reports.map((report) => report.batch_id).sort()).toEqual(['n:apns:0:3', 'n:fcm:0:0']);
    expect(reports.flatMap((report) => report.results.map((line) => line.outcome))).toEqual(['held_out', 'held_out']);
  });
});
