import Type from 'typebox';
import { BEARER, errorResponses, MetadataPatch } from './common.ts';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';

export const updateMetadataSchema = {
  summary: "Update a device's metadata (no bearer key needed; project and device in the query)",
  description:
    '`identifier` matches, within the project, a device id, a device token, or any value of a device\'s `identifiers`; ' +
    "it matches a device's `external_id` (its user) only with proof that the caller may speak for that user: the project's bearer key, " +
    'or (identity verification on) a valid `identifier_hash`. Without proof a user id matches nothing, so the answer (404) says nothing about that user. ' +
    'Every matching device is updated. `locale` replaces the device\'s locale (the app\'s language changed). Metadata merge semantics: given keys are set, keys sent as `null` are removed, others are kept. ' +
    `At most ${DEVICE_LIMITS.identifierMatches} devices: an identifier that matches more is refused with 400. ` +
    `A device keeps at most ${DEVICE_LIMITS.mapEntries} metadata keys; a merge that would exceed it is refused with 400. ` +
    'Answers only how many devices were updated: the caller has no API key, so nothing about any device is revealed. ' +
    'When the project has identity verification on (`herald projects identity-verification <project-id> on`), ' +
    '`identifier_hash` must be the hex HMAC-SHA256 of `"identifier:" + identifier` under the project\'s device-auth secret, else 401; ' +
    "the project's bearer key stands in for it. A bearer key that is not valid is refused with 401.",
  tags: ['devices'],
  // The bearer key is optional here: it proves the caller is the project (a user id then matches external_id).
  security: [{}, ...BEARER],
  querystring: Type.Object(
    {
      project_id: Type.String({ minLength: 1 }),
      identifier: Type.String({ minLength: 1, maxLength: 4096 }),
      identifier_hash: Type.Optional(
        Type.String({
          pattern: '^[0-9a-fA-F]{64}$',
          description:
            "Hex HMAC-SHA256 of the string `\"identifier:\" + identifier` under the project's device-auth secret; required when identity verification is on (unless the bearer key is sent)",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  body: Type.Object(
    {
      metadata: Type.Optional(MetadataPatch),
      locale: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "The device's BCP 47 language tag (e.g. fr-CA), stored in canonical form; 400 when it is not one" })),
    },
    { additionalProperties: false, minProperties: 1, description: '`metadata`, `locale` or both' },
  ),
  response: {
    200: Type.Object({ data: Type.Object({ updated: Type.Integer({ minimum: 1, description: 'Devices whose metadata was updated' }) }) }),
    ...errorResponses(400, 401, 404, 413, 415, 503),
  },
} as const;
