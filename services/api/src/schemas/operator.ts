import Type from 'typebox';
import { errorResponses } from './common.ts';

/**
 * The operator's endpoints (/admin/v1): dead letters hold every project's
 * records, so they take the operator token (HERALD_ADMIN_TOKEN), never a
 * project key, and are left out of the public OpenAPI document
 * (docs/reference/operator-api.md describes them).
 */
const HIDDEN = { hide: true } as const;

const TEXT = { minLength: 1, maxLength: 256 } as const;
const Filter = {
  topic: Type.Optional(Type.String({ ...TEXT, description: 'a dead-letter topic or the source topic (logical), e.g. herald.device-events' })),
  group: Type.Optional(Type.String({ ...TEXT, description: 'the consumer group that dead-lettered (logical), e.g. herald.projector.devices.v1' })),
  error: Type.Optional(Type.String({ ...TEXT, description: 'only dead letters whose error chain contains this text (case-insensitive)' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'dead-lettered at or after this time' })),
};
const Kind = Type.Enum(['undecodable', 'schema-invalid', 'handler-error']);

export const deadLetterCountsSchema = {
  ...HIDDEN,
  querystring: Type.Object(Filter, { additionalProperties: false }),
  response: {
    200: Type.Object({
      data: Type.Array(
        Type.Object({
          topic: Type.String(),
          group: Type.String(),
          kind: Kind,
          error: Type.String({ description: 'the first line of the outermost error, cut at 160 characters' }),
          match: Type.String({ description: "an `error` filter (for the redrive) that selects this row's dead letters" }),
          count: Type.Integer(),
          oldest: Type.String(),
          newest: Type.String(),
        }),
      ),
    }),
    ...errorResponses(400, 401, 429, 503),
  },
} as const;

const Letter = Type.Object({
  ref: Type.String({ description: '<dlq topic>:<partition>:<offset> (as `herald dlq show` takes it)' }),
  source: Type.String({ description: '<topic>:<partition>:<offset> of the record that failed' }),
  group: Type.String(),
  kind: Kind,
  error: Type.String(),
  redrives: Type.Integer({ description: 'times it was redriven before this failure' }),
});

export const redriveSchema = {
  ...HIDDEN,
  body: Type.Object({ ...Filter, dry_run: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
  response: {
    200: Type.Object({
      data: Type.Object({
        dry_run: Type.Boolean(),
        redriven: Type.Array(Letter, { description: 'written back to their source topics (with dry_run: would be)' }),
        already_redriven: Type.Array(Type.Object({ ref: Type.String(), redriven_at: Type.String(), to: Type.String() }), { description: 'matching dead letters redriven before: never twice' }),
      }),
    }),
    ...errorResponses(400, 401, 409, 415, 429, 503),
  },
} as const;
