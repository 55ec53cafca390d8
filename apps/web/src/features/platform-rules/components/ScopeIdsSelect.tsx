/**
 * The projects or products of a node's device scope (trigger, aggregation, control nodes), picked by name: a
 * searchable multiple Select over the tenant's projects or products (GET projects / products `?q=`, first 100
 * matches), storing their ids. An id no longer in the list still shows, as `#id`.
 */
import { Select } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProducts } from '../../products/api';
import { useProjects } from '../../projects/api';

/** How many matches the picker lists at once (the lists' page limit). */
const PICK_LIMIT = 100;

/** Props: the scope's kind (`projects` or `products`), the chosen ids and their change. */
export interface TScopeIdsSelectProps {
  kind: 'projects' | 'products';
  value: number[];
  onChange: (ids: number[]) => void;
  testId: string;
}

/** The picker. */
export function ScopeIdsSelect({ kind, value, onChange, testId }: TScopeIdsSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const query = { page: 1, limit: PICK_LIMIT, ...(search.trim() ? { q: search.trim() } : {}) };
  const projects = useProjects(query, kind === 'projects');
  const products = useProducts(query, kind === 'products');
  const list = kind === 'projects' ? projects : products;
  // Names seen so far, so a chosen id keeps its name while another search is shown.
  const names = useRef(new Map<number, string>());
  for (const item of list.data?.data ?? []) names.current.set(item.id, item.name);
  const options = useMemo(() => {
    const shown = new Map<number, string>((list.data?.data ?? []).map((i) => [i.id, i.name]));
    for (const id of value) if (!shown.has(id)) shown.set(id, names.current.get(id) ?? `#${id}`);
    return [...shown].map(([id, name]) => ({ value: id, label: name }));
  }, [list.data, value]);
  return (
    <Select<number[]>
      mode="multiple"
      value={value}
      onChange={(ids) => {
        onChange(ids);
        setSearch('');
      }}
      showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
      loading={list.isFetching}
      options={options}
      placeholder={t(`platformRules.scopePick.${kind}`)}
      notFoundContent={list.isFetching ? null : t('platformRules.scopePick.none')}
      aria-label={t(`platformRules.scopePick.${kind}`)}
      data-testid={testId}
    />
  );
}
