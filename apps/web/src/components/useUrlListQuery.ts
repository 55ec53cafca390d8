/**
 * Paging, search and filters of a list page kept in the URL (`?q=&page=&limit=&<filter>=`), so a link, a reload or
 * the back button shows the same list (spec §3 "Lists carry page, limit, total_items"). The in-memory twin is
 * `useListQuery` (components/usePagedQuery.ts); both answer a {@link TListState} for `ListPage`.
 */
import { DEFAULT_PAGE_LIMIT } from '@tessera/contracts';
import { useSearchParams } from 'react-router';
import type { TListState } from './ListPage';

/** A URL parameter's whole-number value (`page`, `limit`, an id or epoch milliseconds); undefined when absent or not one. */
export const numberParam = (v: string | null): number | undefined => (v && /^\d+$/.test(v) ? Number(v) : undefined);

/** The URL parameters to set; `undefined` or `''` removes one. */
export type TUrlParams = Record<string, string | number | undefined>;

/** {@link TListState} read from the URL, plus the URL's parameters (the page's filters) and a setter for them. */
export interface TUrlListState extends TListState {
  params: URLSearchParams;
  /** Sets `next` in the URL; any change but a page of its own goes back to the first page. */
  update: (next: TUrlParams) => void;
}

/** The list state of the URL; `limit` is the page size when the URL names none (and is then left out of it). */
export function useUrlListQuery(limit = DEFAULT_PAGE_LIMIT): TUrlListState {
  const [params, setParams] = useSearchParams();
  const update = (next: TUrlParams) => {
    const merged = new URLSearchParams(params);
    for (const [k, v] of Object.entries({ page: undefined, ...next })) {
      if (v === undefined || v === '') merged.delete(k);
      else merged.set(k, String(v));
    }
    setParams(merged);
  };
  return {
    query: {
      page: numberParam(params.get('page')) || 1,
      limit: numberParam(params.get('limit')) || limit,
      q: params.get('q') || undefined,
    },
    params,
    update,
    search: (q) => update({ q: q.trim() || undefined }),
    paginate: (page, pageSize) => update({ page, limit: pageSize === limit ? undefined : pageSize }),
  };
}
