import { describe, expect, it } from 'vitest';
import type { FanoutMessageV2 } from '@herald/events';
import type { DeviceValues } from '@herald/templates';
import { baseMessage, contentBytes, contentMakerFor, contentsOfRows, valuesOfRows, withContents } from './content-step.ts';

const template: FanoutMessageV2 = {
  title: 'Hi {{ device.metadata.first_name | default: "there" }}',
  body: '{{ n }} new',
  badge: 1,
  template: {
    id: 't',
    name: 'welcome',
    version: 2,
    variables: { n: 3 },
    content: {
      default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: '{{ n }} new' },
      fr: { title: 'Bonjour {{ device.metadata.first_name | default: "à vous" }}', body: '{{ n }} nouveaux' },
      de: { title: 'Hallo {{ device.metadata.nickname }}', body: '{{ n }} neu' },
    },
  },
};

/** An index whose rows are these devices, by ordinal. */
function index(devices: Array<{ metadata: Record<string, string>; locale?: string; timezone?: string }>) {
  return { rowsAt: (_partition: number, ordinals: readonly number[]) => ordinals.map((ordinal) => devices[ordinal] as never) };
}

describe('content step', () => {
  it('costs a plain literal send nothing: no maker, and its message goes as it is', () => {
    expect(contentMakerFor({ title: 't', body: 'b' })).toBeUndefined();
    expect(contentMakerFor({ title: 't', body: 'b', localizations: {} })).toBeUndefined();
  });

  it("renders each device's content in its language, personalised, and fails only the device whose render fails", () => {
    const maker = contentMakerFor(template)!;
    const rows = [0, 1, 2, 3].map((ordinal) => ({ ordinal, device_id: `d${ordinal}` }));
    const contents = contentsOfRows(maker, index([{ metadata: { first_name: 'Ana' }, locale: 'fr-CA' }, { metadata: {} }, { metadata: {}, locale: 'de-AT' }, { metadata: { first_name: 'Ana' }, locale: 'fr' }]), 0, rows);
    const batch = withContents({ provider: 'fcm', sequence: 0, devices: rows.map((row) => ({ device_id: row.device_id, token: `tok${row.ordinal}` })) }, contents);
    expect(batch.contents).toEqual([{ title: 'Bonjour Ana', body: '3 nouveaux' }, { title: 'Hi there', body: '3 new' }]);
    expect(batch.devices).toEqual([
      { device_id: 'd0', token: 'tok0', content: 0, locale: 'fr' },
      { device_id: 'd1', token: 'tok1', content: 1, locale: 'default' },
      { device_id: 'd2', token: 'tok2', locale: 'de', error: 'content.de.title line 1: undefined variable: device.metadata.nickname' },
      { device_id: 'd3', token: 'tok3', content: 0, locale: 'fr' },
    ]);
    expect(contentBytes(contents)('d0')).toBeGreaterThan(40);
  });

  it("takes the values the page read carried (the index is not read again); devices with the same content share one object, named for the variant", () => {
    const maker = contentMakerFor(template, 'B')!;
    const values: DeviceValues[] = [{ metadata: { first_name: 'Ana' }, locale: 'fr' }, { metadata: { first_name: 'Ana' }, locale: 'fr-CA' }, { metadata: { first_name: 'Bo' } }, { metadata: {}, locale: 'de' }, { metadata: {}, locale: 'de' }];
    const rows = values.map((row, ordinal) => ({ ordinal, device_id: `d${ordinal}`, values: row }));
    const unread = {
      rowsAt: () => {
        throw new Error('read again');
      },
    };
    const contents = contentsOfRows(maker, unread, 0, rows);
    expect(contents.get('d0')).toMatchObject({ variant: 'B', locale: 'fr', content: { title: 'Bonjour Ana' } });
    expect(contents.get('d1')).toBe(contents.get('d0'));
    expect(contents.get('d2')).toMatchObject({ variant: 'B', content: { title: 'Hi Bo' } });
    expect(contents.get('d3')).toMatchObject({ variant: 'B', locale: 'de', error: expect.stringContaining('nickname') });
    expect(contents.get('d4')).toBe(contents.get('d3'));
    const batch = withContents({ provider: 'fcm', sequence: 0, devices: rows.map((row) => ({ device_id: row.device_id, token: 't' })) }, contents);
    expect(batch.contents).toHaveLength(2);
    expect(batch.devices[1]).toEqual({ device_id: 'd1', token: 't', locale: 'fr', variant: 'B', content: 0 });
  });

  it('reads the values of rows that carry none from the index, in one read', () => {
    const rows = [{ ordinal: 0, device_id: 'd0', values: { metadata: { first_name: 'Ana' } } }, { ordinal: 1, device_id: 'd1' }];
    const read: number[][] = [];
    const devices = { rowsAt: (_partition: number, ordinals: readonly number[]) => (read.push([...ordinals]), ordinals.map((ordinal) => ({ metadata: { first_name: `Row${ordinal}` } }) as never)) };
    expect(valuesOfRows(devices, 0, rows).map((values) => values.metadata.first_name)).toEqual(['Row0', 'Row1']);
    expect(read).toEqual([[0, 1]]);
  });

  it('renders a replay identically: a fresh maker from the same message gives the same batch', () => {
    const rows = [0, 1].map((ordinal) => ({ ordinal, device_id: `d${ordinal}` }));
    const devices = index([{ metadata: { first_name: 'Ana' }, locale: 'fr' }, { metadata: {}, locale: 'en' }]);
    const once = () => withContents({ provider: 'fcm', sequence: 0, devices: rows.map((row) => ({ device_id: row.device_id, token: 't' })) }, contentsOfRows(contentMakerFor(template)!, devices, 0, rows));
    expect(JSON.stringify(once())).toBe(JSON.stringify(once()));
  });

  it('lays a literal send\'s localisation over its fields for devices of that language', () => {
    const maker = contentMakerFor({ title: 'Sale', body: 'Today', localizations: { fr: { title: 'Soldes' } } })!;
    expect(maker.contentOf({ metadata: {}, locale: 'fr-BE' })).toMatchObject({ locale: 'fr', content: { title: 'Soldes', body: 'Today' } });
    expect(maker.contentOf({ metadata: {}, locale: 'es' })).toMatchObject({ locale: 'default', content: { title: 'Sale', body: 'Today' } });
  });

  it("keeps the template and localisations out of a batch's message", () => {
    expect(baseMessage(template)).toEqual({ title: template.title, body: template.body, badge: 1 });
  });
});
