import { describe, expect, it } from 'vitest';
import { ListDevicesQuery } from './schemas/devices.ts';
import { convertStrings, validatorCompiler } from './validator-compiler.ts';

describe('convertStrings', () => {
  it('converts exact integers and leaves everything else for validation to refuse', () => {
    expect(convertStrings(ListDevicesQuery, { limit: '10', page: '1.5', status: 'active' })).toEqual({ limit: 10, page: '1.5', status: 'active' });
    expect(convertStrings(ListDevicesQuery, { limit: 'ten', page: ['1', '2'] })).toEqual({ limit: 'ten', page: ['1', '2'] });
  });
});

describe('validatorCompiler', () => {
  const validate = validatorCompiler({ schema: ListDevicesQuery, method: 'GET', url: '/', httpPart: 'querystring' }) as (value: unknown) => { value?: unknown; error?: unknown[] };

  it('accepts a converted query', () => {
    expect(validate({ limit: '5', page: '2' })).toEqual({ value: { limit: 5, page: 2 } });
  });

  it('refuses a fractional page instead of truncating it', () => {
    expect(validate({ page: '1.5' }).error).toHaveLength(1);
  });
});
