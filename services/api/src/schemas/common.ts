import Type from 'typebox';

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
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 20, description: 'Items per page; values above 100 are served as 100' })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
};

/** Keys may not contain '.' or start with '$' (they are stored and matched as document fields). */
const MAP_KEY = '^[^.$][^.]{0,127}$';

export const StringMap = Type.Record(Type.String({ pattern: MAP_KEY }), Type.String({ maxLength: 1024 }), {
  additionalProperties: false,
  maxProperties: 100,
  description: "String values; keys up to 128 characters, without '.', not starting with '$'",
});

/** A metadata filter: at least one pair, all of which a device's metadata must contain. */
export const MetadataFilter = Type.Record(Type.String({ pattern: MAP_KEY }), Type.String({ maxLength: 1024 }), {
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 100,
});

/** Metadata in a PATCH: a string sets the key, `null` removes it. */
export const MetadataPatch = Type.Record(Type.String({ pattern: MAP_KEY }), Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]), {
  additionalProperties: false,
  maxProperties: 100,
  description: "A string value sets the key; null removes it. Keys without '.', not starting with '$'",
});

/** Responses every bearer route can give besides its own. */
export function errorResponses<const Codes extends readonly number[]>(...codes: Codes) {
  const responses: Record<number, typeof ErrorBody> = {};
  for (const code of codes) responses[code] = ErrorBody;
  return responses as { [K in Codes[number]]: typeof ErrorBody };
}

export const BEARER = [{ bearerAuth: [] as string[] }];
