/** List paging (spec §3, §7: "Lists read data, page, limit, total_items"). */
import { z } from 'zod';
import { ZIdText, zIntText } from './input.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE, MAX_PAGE_LIMIT } from './limits.js';

/** `?page=&limit=&q=` of every list endpoint; page is 1-based; q is a case-insensitive substring search. */
export const ZListQuery = z.object({
  page: zIntText(1, MAX_PAGE).default(1),
  limit: zIntText(1, MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  q: z.string().trim().max(64).optional(),
});
export type TListQuery = z.infer<typeof ZListQuery>;

/** Builds the `{ data, page, limit, total_items }` response schema of a list of `item`. */
export function zPage<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    total_items: z.number().int(),
  });
}
/** A page of `T` as returned by list endpoints. */
export interface TPage<T> {
  data: T[];
  page: number;
  limit: number;
  total_items: number;
}
/** `{ total }` answered by the `sum` endpoints. */
export const ZSum = z.object({ total: z.number().int() });
export type TSum = z.infer<typeof ZSum>;
/** A numeric path id (decimal digits, 1 … 2^31 − 1). */
export const ZIdParam = z.object({ id: ZIdText });
export type TIdParam = z.infer<typeof ZIdParam>;
