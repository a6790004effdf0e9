import { describe, expect, it } from 'vitest';
import { parseTemplateReference, templateIdFor } from './reference.ts';

describe('parseTemplateReference', () => {
  it('reads a name, a name with a version, an id and an id with a version', () => {
    const id = templateIdFor('p1', 'welcome');
    expect(parseTemplateReference('p1', 'welcome')).toEqual({ id, written: 'welcome' });
    expect(parseTemplateReference('p1', 'welcome@3')).toEqual({ id, written: 'welcome', version: 3 });
    expect(parseTemplateReference('p1', `${id.toUpperCase()}@2`)).toEqual({ id, written: id.toUpperCase(), version: 2 });
  });

  it('takes a name with @ in it whole when what follows is not a version', () => {
    expect(parseTemplateReference('p1', 'promo@home')).toEqual({ id: templateIdFor('p1', 'promo@home'), written: 'promo@home' });
    expect(parseTemplateReference('p1', 'a@b@4')).toMatchObject({ written: 'a@b', version: 4 });
  });

  it('refuses an empty name and version 0', () => {
    expect(parseTemplateReference('p1', '@2')).toBeUndefined();
    expect(parseTemplateReference('p1', 'x@0')).toBeUndefined();
  });

  it('derives ids per project: one name in two projects is two templates', () => {
    expect(templateIdFor('p1', 'x')).not.toBe(templateIdFor('p2', 'x'));
    expect(templateIdFor('p1', 'x')).toBe(templateIdFor('p1', 'x'));
    expect(templateIdFor('p1', 'x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
