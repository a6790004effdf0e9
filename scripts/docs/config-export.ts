// Writes the variables table of docs/reference/configuration.md and
// .env.example from the services' typebox config schemas.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configTable, configVariables, envExample, withConfigTable } from './config-reference.ts';
import { CONFIG_PAGE, ENV_EXAMPLE, ROOT, serviceSchemas } from './config-schemas.ts';

const variables = configVariables(await serviceSchemas());
const page = join(ROOT, CONFIG_PAGE);
await writeFile(page, withConfigTable(await readFile(page, 'utf8'), configTable(variables)));
await writeFile(join(ROOT, ENV_EXAMPLE), envExample(variables));
process.stdout.write(`wrote ${variables.length} variables to ${CONFIG_PAGE} and ${ENV_EXAMPLE}\n`);
