/** Paging and search state of a list page (spec §3 "Lists carry page, limit, total_items"; `?page=&limit=&q=`). */
import { DEFAULT_PAGE_LIMIT, type TListQuery } from '@tessera/contracts';
import { useState } from 'react';

/** `{ page, limit, q }` plus setters wired for an antd Table and a search box (a new search goes to page 1). */
export function useListQuery(limit = DEFAULT_PAGE_LIMIT) {
  const [query, setQuery] = useState<TListQuery>({ page: 1, limit, q: undefined });
  return {
    query,
    search: (q: string) => setQuery((s) => ({ ...s, page: 1, q: q.trim() || undefined })),
    paginate: (page: number, pageSize: number) => setQuery((s) => ({ ...s, page, limit: pageSize })),
  };
}
