import { describe, expect, it } from 'vitest';
import { validationMessages } from '@herald/errors';
import { ListDevicesQuery } from './schemas/devices.ts';
import { targetProblems } from '@herald/audience';
import { NotificationRequest } from './schemas/notifications.ts';
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

describe('a target matching none of its forms', () => {
  const validate = validatorCompiler({ schema: NotificationRequest, method: 'POST', url: '/', httpPart: 'body' }) as (value: unknown) => { error?: unknown[] };
  const messages = (targets: unknown[]) => validationMessages(validate({ title: 't', body: 'b', targets }).error as never);

  it('is named once, not by each form it failed', () => {
    expect(messages([5])).toEqual(['targets[0] does not match any allowed form']);
    expect(messages(['ok', ['a list']])).toEqual(['targets[1] does not match any allowed form']);
  });

  it('leaves what an object target holds to the audience check, which names the node', () => {
    expect(validate({ title: 't', body: 'b', targets: [{ metadata: { plan: 1 } }] }).error).toBeUndefined();
    expect(targetProblems([{ metadata: { plan: 1 } }], 'targets').join('\n')).toContain('targets[0].metadata."plan": must be a string');
    expect(targetProblems(['ok', { device_id: 'd', extra: 1 }], 'targets').join('\n')).toContain('targets[1]');
  });
});

describe('validationMessages with a union cut off by the error bound', () => {
  it('names the value its branches were about', () => {
    const branch = (schemaPath: string, instancePath: string) => ({ keyword: 'required', schemaPath, instancePath, params: { requiredProperties: ['topic'] } });
    expect(validationMessages([branch('#/properties/targets/items/anyOf/1', '/targets/3'), branch('#/properties/targets/items/anyOf/2', '/targets/3/metadata')])).toEqual(['targets[3] does not match any allowed form']);
  });
});
