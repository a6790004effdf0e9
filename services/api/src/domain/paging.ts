/** The spec's pagination object. */
export interface Pagination {
  count: number;
  page: number;
  pages: number;
  from: number;
  to: number;
  last: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface PageRequest {
  page: number;
  limit: number;
  skip: number;
}

/** Defaults and clamping: a limit above 100 is served as 100 rather than refused. */
export function pageRequest(query: { page?: number | undefined; limit?: number | undefined }): PageRequest {
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const page = query.page ?? 1;
  return { page, limit, skip: (page - 1) * limit };
}

/**
 * `count` is the total number of matching items; `from`/`to` are the 1-based
 * positions of the first and last item on this page (0 when it is empty);
 * `pages` = `last` = the number of pages, at least 1.
 */
export function pagination(request: PageRequest, countedBefore: number, itemsOnPage: number): Pagination {
  // The count and the page are two queries while projections keep writing: never report fewer items than were served.
  const count = Math.max(countedBefore, itemsOnPage === 0 ? 0 : request.skip + itemsOnPage);
  const pages = Math.max(1, Math.ceil(count / request.limit));
  const from = itemsOnPage === 0 ? 0 : request.skip + 1;
  const to = itemsOnPage === 0 ? 0 : request.skip + itemsOnPage;
  return { count, page: request.page, pages, from, to, last: pages };
}
