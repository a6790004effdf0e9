import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { validationMessages } from './validation-messages.ts';

const Body = Type.Object(
  {
    project_id: Type.String({ minLength: 1 }),
    platform: Type.Enum(['ios', 'android']),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    targets: Type.Optional(Type.Array(Type.Union([Type.String({ minLength: 1 }), Type.Object({ metadata: Type.Object({}) })]), { minItems: 1 })),
  },
  { additionalProperties: false },
);
const check = Compile(Body);

describe('validationMessages', () => {
  it('names each missing field', () => {
    expect(validationMessages(check.Errors({}))).toEqual(['project_id is required', 'platform is required']);
  });

  it('names the field and the rule', () => {
    const messages = validationMessages(check.Errors({ project_id: '', platform: 'web', metadata: { plan: 3 }, targets: [], extra: 1 }));
    expect(messages).toEqual(
      expect.arrayContaining([
        'project_id must not be empty',
        'platform must be one of: ios, android',
        'metadata.plan must be a string',
        'targets must contain at least 1 item',
        'extra is not an allowed field',
      ]),
    );
    expect(messages).toHaveLength(5);
  });

  it('names a key that breaks propertyNames once', () => {
    const Map = Type.Object({ metadata: Type.Record(Type.String(), Type.String(), { propertyNames: { pattern: '^[^.$]' } }) });
    expect(validationMessages(Compile(Map).Errors({ metadata: { '$bad': 'x' } }))).toEqual(['metadata key "$bad" is not allowed']);
  });

  it('folds a failed union into one message at its index', () => {
    expect(validationMessages(check.Errors({ project_id: 'p', platform: 'ios', targets: [5] }))).toEqual([
      'targets[0] does not match any allowed form',
    ]);
  });
});
