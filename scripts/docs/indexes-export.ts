// Writes the indexes table of docs/internals/indexes.md from the index declarations.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './config-schemas.ts';
import { declaredIndexes, FERRETDB_INDEXES, INDEXES_PAGE } from './index-declarations.ts';
import { indexesTable, withIndexesTable } from './index-reference.ts';

const collections = declaredIndexes();
const page = join(ROOT, INDEXES_PAGE);
await writeFile(page, withIndexesTable(await readFile(page, 'utf8'), indexesTable(collections, FERRETDB_INDEXES)));
process.stdout.write(`wrote ${collections.reduce((sum, { indexes }) => sum + indexes.length, 0)} indexes to ${INDEXES_PAGE}\n`);
