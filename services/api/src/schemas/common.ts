import Type from 'typebox';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';

/** Every error body, whatever the status: clients parse one shape. */
export const ErrorBody = Type.Object(
  { errors: Type.Array(Type.String(), { minItems: 1, description: 'Messages naming the field and the rule' }) },
  { $id: 'ErrorBody', description: 'Error' },
);

export const Pagination = Type.Object(
  {
    count: Type.Integer({ description: 'Total number of matching items' }),
    page: Type.Integer({ description: 'The page served (1-based)' }),
    pages: Type.Integer({ description: 'Number of pages, at least 1' }),
    from: Type.Integer({ description: '1-based position of the first item on this page; 0 when the page is empty' }),
    to: Type.Integer({ description: '1-based position of the last item on this page; 0 when the page is empty' }),
    last: Type.Integer({ description: 'Number of the last page (equals pages)' }),
  },
  { $id: 'Pagination' },
);

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 20, description: 'Items per page; values above 100 are served as 100' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 })),
};

/**
 * Keys are stored and matched as document fields, so they may not contain
 * '.' or NUL, nor start with '$'; control characters and line separators are
 * refused too (the response serializer matches keys with `^.*$`). Expressed
 * as `propertyNames`, which the OpenAPI document keeps (it rewrites
 * `patternProperties`).
 */
export const MAP_KEYS = {
  propertyNames: { pattern: `^[^.$\\u0000-\\u001f\\u2028\\u2029][^.\\u0000-\\u001f\\u2028\\u2029]{0,${DEVICE_LIMITS.keyLength - 1}}$` },
  description: `Keys: 1–${DEVICE_LIMITS.keyLength} characters, without '.' or control characters, not starting with '$'; at most ${DEVICE_LIMITS.mapEntries} entries; values at most ${DEVICE_LIMITS.valueLength} characters`,
};
const MAP_VALUE = Type.String({ maxLength: DEVICE_LIMITS.valueLength });

/** String values by string keys, as metadata and identifiers are. */
export const StringMap = Type.Record(Type.String(), MAP_VALUE, { ...MAP_KEYS, maxProperties: DEVICE_LIMITS.mapEntries });

/** A metadata filter: at least one pair, all of which a device's metadata must contain. */
export const MetadataFilter = Type.Record(Type.String(), MAP_VALUE, { ...MAP_KEYS, minProperties: 1, maxProperties: DEVICE_LIMITS.mapEntries });

/** Metadata in a PATCH: a string sets the key, `null` removes it. */
export const MetadataPatch = Type.Record(Type.String(), Type.Union([MAP_VALUE, Type.Null()]), {
  ...MAP_KEYS,
  maxProperties: DEVICE_LIMITS.mapEntries,
  description: `A string value sets the key; null removes it. ${MAP_KEYS.description}`,
});

/** Responses every bearer route can give besides its own. */
export function errorResponses<const Codes extends readonly number[]>(...codes: Codes) {
  const responses: Record<number, typeof ErrorBody> = {};
  for (const code of codes) responses[code] = ErrorBody;
  return responses as { [K in Codes[number]]: typeof ErrorBody };
}

export const BEARER = [{ bearerAuth: [] as string[] }];
