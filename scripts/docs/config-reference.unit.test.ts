import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEGIN_MARKER, configTable, configVariables, END_MARKER, envExample, typeText, withConfigTable, type ServiceSchema } from './config-reference.ts';
import { CONFIG_PAGE, ENV_EXAMPLE, ROOT, serviceSchemas } from './config-schemas.ts';

const services: ServiceSchema[] = [
  {
    name: 'api',
    schema: {
      properties: {
        PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000, description: 'port the API listens on' },
        LOG_LEVEL: { enum: ['info', 'warn'], default: 'info', description: 'pino log level' },
        TOKEN: { type: 'string', description: 'a <secret> | kept' },
      },
    },
  },
  { name: 'cli', schema: { properties: { LOG_LEVEL: { enum: ['info', 'warn'], default: 'warn', description: 'pino log level' } } } },
];

describe('configVariables', () => {
  it('merges a variable read by several services, keeping what differs per service', () => {
    const [level, port, token] = configVariables(services);
    expect(level).toEqual({
      name: 'LOG_LEVEL',
      services: ['api', 'cli'],
      type: [{ value: 'info \\| warn', services: ['api', 'cli'] }],
      default: [
        { value: 'info', services: ['api'] },
        { value: 'warn', services: ['cli'] },
      ],
      description: [{ value: 'pino log level', services: ['api', 'cli'] }],
    });
    expect(port!.type).toEqual([{ value: 'integer 0–65535', services: ['api'] }]);
    expect(token!.name).toBe('TOKEN');
  });

  it('refuses a variable whose schema gives no description, naming it', () => {
    expect(() => configVariables([{ name: 'x', schema: { properties: { B: { type: 'string' }, A: { type: 'string', description: ' ' } } } }])).toThrow(
      'config variables without a description in their schema: A, B',
    );
  });

  it('reads ranges and enums as types', () => {
    expect(typeText({ type: 'integer', minimum: 1 })).toBe('integer ≥ 1');
    expect(typeText({ type: 'integer', maximum: 9 })).toBe('integer ≤ 9');
    expect(typeText({ type: 'string', pattern: 'x' })).toBe('string');
  });
});

describe('configTable, withConfigTable and envExample', () => {
  const variables = configVariables(services);

  it('writes one row per variable, escaping what Markdown would read as markup, unset for no default', () => {
    const table = configTable(variables).split('\n');
    expect(table[0]).toBe('| variable | read by | type | default | meaning |');
    expect(table[2]).toBe('| `LOG_LEVEL` | api, cli | info \\| warn | api: `info`; cli: `warn` | pino log level |');
    expect(table[4]).toBe('| `TOKEN` | api | string | unset | a &lt;secret&gt; \\| kept |');
  });

  it('replaces only the generated section of the page', () => {
    const page = `# Title\n\nprose\n\n${BEGIN_MARKER}\n\nold table\n\n${END_MARKER}\n\nmore prose\n`;
    expect(withConfigTable(page, 'new table')).toBe(`# Title\n\nprose\n\n${BEGIN_MARKER}\n\nnew table\n\n${END_MARKER}\n\nmore prose\n`);
    expect(() => withConfigTable('# no markers', 'table')).toThrow('no generated section');
  });

  it('comments every variable out at its default, per service where they differ', () => {
    const example = envExample(variables);
    expect(example).toContain('# pino log level\n# read by: api, cli; type: info | warn\n# LOG_LEVEL=info  (api)\n# LOG_LEVEL=warn  (cli)\n');
    expect(example).toContain('# PORT=3000\n');
    expect(example).toContain('# TOKEN=\n');
    expect(example.split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual([]);
  });
});

describe(`${CONFIG_PAGE} and ${ENV_EXAMPLE}`, () => {
  it('are up to date with the services\' config schemas (run `npm run config:export` after changing a setting)', async () => {
    const variables = configVariables(await serviceSchemas());
    expect(variables.map((variable) => variable.name)).toEqual(expect.arrayContaining(['KAFKA_BROKERS', 'PORT', 'DELIVERY_ROLES', 'WEBHOOK_TIMEOUT_MS']));
    const page = readFileSync(join(ROOT, CONFIG_PAGE), 'utf8');
    expect(page, `${CONFIG_PAGE} is stale`).toBe(withConfigTable(page, configTable(variables)));
    expect(readFileSync(join(ROOT, ENV_EXAMPLE), 'utf8'), `${ENV_EXAMPLE} is stale`).toBe(envExample(variables));
  });
});
