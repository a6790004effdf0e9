import { describe, expect, it } from 'vitest';
import { pageRequest, pagination } from './paging.ts';

describe('pageRequest', () => {
  it('defaults to page 1 of 20', () => {
    expect(pageRequest({})).toEqual({ page: 1, limit: 20, skip: 0 });
  });
  it('clamps limit to 100', () => {
    expect(pageRequest({ limit: 500, page: 3 })).toEqual({ page: 3, limit: 100, skip: 200 });
  });
});

describe('pagination', () => {
  it('describes a middle page', () => {
    expect(pagination(pageRequest({ page: 2, limit: 10 }), 25, 10)).toEqual({ count: 25, page: 2, pages: 3, from: 11, to: 20, last: 3 });
  });
  it('describes a short last page', () => {
    expect(pagination(pageRequest({ page: 3, limit: 10 }), 25, 5)).toEqual({ count: 25, page: 3, pages: 3, from: 21, to: 25, last: 3 });
  });
  it('describes an empty list as one empty page', () => {
    expect(pagination(pageRequest({}), 0, 0)).toEqual({ count: 0, page: 1, pages: 1, from: 0, to: 0, last: 1 });
  });
  it('never counts fewer items than the page shows (a document projected between the two queries)', () => {
    expect(pagination(pageRequest({}), 0, 1)).toEqual({ count: 1, page: 1, pages: 1, from: 1, to: 1, last: 1 });
  });

  it('describes a page past the end as empty', () => {
    expect(pagination(pageRequest({ page: 9, limit: 10 }), 25, 0)).toEqual({ count: 25, page: 9, pages: 3, from: 0, to: 0, last: 3 });
  });
});
