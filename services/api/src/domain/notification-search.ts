import { UnprocessableError } from '@herald/errors';

/** Where a search's count stops: a title search reads every row of its range, so a count past this is not worth its cost. */
export const SEARCH_COUNT_LIMIT = 10_000;

/**
 * A search's date range as the read model stores times (ISO 8601 in UTC,
 * compared as text): an offset such as `+09:00` is turned into UTC first.
 * 422 when the range is empty.
 */
export function checkedRange(from: string | undefined, to: string | undefined): { created_from?: string; created_to?: string } {
  const created_from = from === undefined ? undefined : new Date(from).toISOString();
  const created_to = to === undefined ? undefined : new Date(to).toISOString();
  if (created_from !== undefined && created_to !== undefined && created_from >= created_to) throw new UnprocessableError([`created_to: must be after created_from (${created_from})`]);
  return { ...(created_from === undefined ? {} : { created_from }), ...(created_to === undefined ? {} : { created_to }) };
}
