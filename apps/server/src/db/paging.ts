/**
 * Paging written once (spec §3, §7: "Lists read data, page, limit, total_items"): a list route counts every matching
 * row and reads one page of them; this runs both at once and answers the envelope.
 */
import type { TPage } from '@tessera/contracts';

/** A page request: `page` is 1-based, `limit` rows per page. */
export interface TPaging {
  page: number;
  limit: number;
}

/** Row offset of 1-based `page` of `limit` rows. */
export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}

/**
 * One page of a list: `count` resolves to `[{ total }]` (a `select({ total: count() })`), `rows(limit, offset)` to the
 * page's rows, which `present` shapes. Both queries run at once.
 */
export async function pageOf<R, T>(
  paging: TPaging,
  count: PromiseLike<{ total: number }[]>,
  rows: (limit: number, offset: number) => PromiseLike<R[]>,
  present: (row: R) => T,
): Promise<TPage<T>> {
  const [[{ total }], list] = await Promise.all([count, rows(paging.limit, offsetOf(paging.page, paging.limit))]);
  return { data: list.map(present), page: paging.page, limit: paging.limit, total_items: Number(total) };
}
