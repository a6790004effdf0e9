import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';

/**
 * typebox buffers 8 errors by default, and reports a failed union after its
 * branches' errors: a target matching none of its six forms would lose the
 * one message that names it. Still a bound (a body of 10,000 bad targets
 * costs at most this many), just one that fits a union's branches.
 */
export const MAX_VALIDATION_ERRORS = 100;
Settings.Set({ maxErrors: MAX_VALIDATION_ERRORS });

/**
 * Query strings and path parameters arrive as strings. Only exact integer
 * (and number, boolean) spellings are converted, so `page=1.5` or
 * `limit=ten` fail validation instead of being truncated or guessed.
 */
export function convertStrings(schema: TSchema, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, raw] of Object.entries(converted)) {
    if (typeof raw !== 'string') continue;
    const type = properties[key]?.type;
    if (type === 'integer' && /^-?\d{1,15}$/.test(raw)) converted[key] = Number(raw);
    else if (type === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) converted[key] = Number(raw);
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) converted[key] = raw === 'true';
  }
  return converted;
}

/** typebox validation for every route: bodies exactly as sent, other parts after `convertStrings`. */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  return (value: unknown) => {
    const input = httpPart === 'body' ? value : convertStrings(schema, value);
    if (check.Check(input)) return { value: input };
    return { error: check.Errors(input) as unknown as FastifySchemaValidationError[] };
  };
};
