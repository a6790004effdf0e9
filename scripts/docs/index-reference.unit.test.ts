import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './config-schemas.ts';
import { declaredIndexes, FERRETDB_INDEXES, INDEXES_PAGE, missingReadModels } from './index-declarations.ts';
import { BEGIN_MARKER, END_MARKER, indexesTable, keyText, undeclaredFerretIndexes, withIndexesTable, type CollectionIndexes } from './index-reference.ts';

const collections: CollectionIndexes[] = [
  {
    collection: 'notifications',
    declaredIn: 'read model',
    indexes: [
      { key: { project_id: 1, created_at: -1, _id: -1 }, name: 'by_project_newest' },
      { key: { project_id: 1, token: 1 }, name: 'by_token', unique: true, partialFilterExpression: { status: 'active' } },
    ],
  },
  { collection: 'webhooks', declaredIn: 'admin', indexes: [{ key: { project_id: 1, created_at: 1 }, name: 'by_project_created' }] },
];

describe('indexesTable', () => {
  it('writes one row per index, ascending fields bare, with its options and whether FerretDB gets it', () => {
    const table = indexesTable(collections, { notifications: ['by_project_newest'] }).split('\n');
    expect(table[0]).toBe('| collection | index | key | options | on FerretDB | declared in |');
    expect(table[2]).toBe('| notifications | `by_project_newest` | `{project_id, created_at: -1, _id: -1}` |  | yes | read model |');
    expect(table[3]).toBe('| notifications | `by_token` | `{project_id, token}` | unique, partial `{"status":"active"}` | no | read model |');
    expect(table[4]).toBe('| webhooks | `by_project_created` | `{project_id, created_at}` |  | no | admin |');
    expect(keyText({ 'devices.device_id': 1, reported_at: -1 })).toBe('{devices.device_id, reported_at: -1}');
  });

  it('refuses an index without a name, naming its collection and key', () => {
    expect(() => indexesTable([{ collection: 'devices', declaredIn: 'x', indexes: [{ key: { token: 1 } }] }], {})).toThrow('an index of devices ({token}) has no name');
  });

  it('finds FerretDB index names no declaration has', () => {
    expect(undeclaredFerretIndexes(collections, { notifications: ['by_project_newest', 'by_gone'], topics: ['by_x'] })).toEqual(['notifications.by_gone', 'topics.by_x']);
  });

  it('replaces only the generated section of the page', () => {
    const page = `# Title\n\n${BEGIN_MARKER}\n\nold\n\n${END_MARKER}\n\nmore\n`;
    expect(withIndexesTable(page, 'new')).toBe(`# Title\n\n${BEGIN_MARKER}\n\nnew\n\n${END_MARKER}\n\nmore\n`);
    expect(() => withIndexesTable('# no markers', 'table')).toThrow('no generated section');
  });
});

describe(INDEXES_PAGE, () => {
  it('lists every declared index (run `npm run indexes:export` after changing an index declaration)', () => {
    expect(missingReadModels()).toEqual([]);
    const declared = declaredIndexes();
    expect(undeclaredFerretIndexes(declared, FERRETDB_INDEXES)).toEqual([]);
    expect(declared.map(({ collection }) => collection)).toEqual(expect.arrayContaining(['devices', 'devices_counts', 'delivery_ledger', 'projects', 'webhooks']));
    const page = readFileSync(join(ROOT, INDEXES_PAGE), 'utf8');
    expect(page, `${INDEXES_PAGE} is stale`).toBe(withIndexesTable(page, indexesTable(declared, FERRETDB_INDEXES)));
  });
});
