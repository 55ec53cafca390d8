/**
 * The console's list page (spec §3 "Lists carry page, limit, total_items"): a card with a title and its actions, a
 * search box (and the page's filters beside it), and a paged table of one kind of record whose empty text says "none
 * yet" (with the page's create button) or "no match" for a search or filter. The empty text shows only once the list
 * has loaded (app/global.css hides it under the spinner). A row may open its record (click, Enter or Space) or expand
 * below itself; the pager may offer other page sizes. The list state comes from `useListQuery` (in memory) or
 * `useUrlListQuery` (in the URL). Pages keep their own test ids: `searchTestId` on the search box,
 * `<rowPrefix>-row-<rowKey>` on each row, `empty.testId` on the empty text. Below 768 px the table scrolls inside
 * its card (app/global.css).
 */
import type { TListQuery } from '@tessera/contracts';
import { Card, Empty, Flex, Input, Table, type TableColumnsType, type TableProps } from 'antd';
import { type HTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openableRow } from './openableRow';

/** The paging and search state of a list page (`useListQuery`'s answer). */
export interface TListState {
  query: TListQuery;
  search: (q: string) => void;
  paginate: (page: number, pageSize: number) => void;
}

/** What a list page says when it has no row. */
export interface TListEmpty {
  /** No record at all yet. */
  text: string;
  /** None matches the search or a filter. */
  noMatch: string;
  /** A filter besides the search is set (the search is known from the list state). */
  filtered?: boolean;
  /** Shown under `text` (not under `noMatch`): usually the page's create button. */
  action?: ReactNode;
  testId?: string;
}

/** The fields of `T` that can name a row: a string or a number. */
type TRowKeyOf<T> = { [K in keyof T]: T[K] extends number | string ? K : never }[keyof T] & string;

/** The row key: `id` unless named; a record without an `id` must name one. */
type TRowKeyProp<T> = T extends { id: number | string } ? { rowKey?: TRowKeyOf<T> } : { rowKey: TRowKeyOf<T> };

/** Props of {@link ListPage}. */
export type TListPageProps<T extends object> = TListPageBaseProps<T> & TRowKeyProp<T>;

/** Props of {@link ListPage} besides its row key. */
export interface TListPageBaseProps<T extends object> {
  /** The page's heading. */
  title: ReactNode;
  /** The card's header actions (a create button). */
  extra?: ReactNode;
  list: TListState;
  /** The page of records read for `list.query`. */
  result: { data?: { data: T[]; total_items: number }; isFetching: boolean };
  /** The table's spinner; by default while the list is being read. */
  loading?: boolean;
  searchPlaceholder: string;
  searchTestId: string;
  /** Filters shown beside the search box. */
  filters?: ReactNode;
  /** Shown above the search box (a notice). */
  notice?: ReactNode;
  /** Row test ids are `<rowPrefix>-row-<rowKey>`. */
  rowPrefix: string;
  columns: TableColumnsType<T>;
  /** The table's size and sideways scroll, when not antd's defaults. */
  table?: Pick<TableProps<T>, 'size' | 'scroll'>;
  /** The table's test id. */
  tableTestId?: string;
  /** Opens a row's record: a click on the row, or Enter or Space on it (rows are then focusable). */
  onOpen?: (record: T) => void;
  /** The part a row shows below itself once clicked (or its expand button pressed). */
  expandedRowRender?: (record: T) => ReactNode;
  /** The pager offers other page sizes (antd's 10, 20, 50, 100), kept in `list.query.limit`. */
  pageSizeChanger?: boolean;
  /** The pager's total, when not "N in total" (`common.total`). */
  totalText?: (total: number) => string;
  empty: TListEmpty;
  /** The card's test id. */
  testId?: string;
  /** Drawers and modals the page opens. */
  children?: ReactNode;
}

/** A list page: title and actions, search and filters, the paged table and its empty text. */
export function ListPage<T extends object>(props: TListPageProps<T>) {
  const {
    title,
    extra,
    list,
    result,
    loading,
    searchPlaceholder,
    searchTestId,
    filters,
    notice,
    rowPrefix,
    columns,
    table,
    tableTestId,
    onOpen,
    expandedRowRender,
    pageSizeChanger,
    totalText,
    empty,
    testId,
    children,
  } = props;
  const rowKey = ((props as { rowKey?: TRowKeyOf<T> }).rowKey ?? 'id') as keyof T;
  const { t } = useTranslation();
  const { query, search, paginate } = list;
  const filtered = Boolean(query.q) || Boolean(empty.filtered);
  // The box shows the list's search: one kept in the URL after a reload, a link or the back button too.
  const [text, setText] = useState(query.q ?? '');
  useEffect(() => setText(query.q ?? ''), [query.q]);
  const onRow = (record: T): HTMLAttributes<HTMLElement> => {
    const testIdOfRow = `${rowPrefix}-row-${String(record[rowKey])}`;
    if (onOpen) return openableRow(testIdOfRow, () => onOpen(record));
    return { 'data-testid': testIdOfRow, ...(expandedRowRender ? { style: { cursor: 'pointer' } } : {}) } as HTMLAttributes<HTMLElement>;
  };
  return (
    <Card title={<h2 style={{ margin: 0, font: 'inherit' }}>{title}</h2>} extra={extra} data-testid={testId}>
      {notice}
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={searchPlaceholder}
          aria-label={searchPlaceholder}
          onSearch={search}
          style={{ maxWidth: 320 }}
          data-testid={searchTestId}
        />
        {filters}
      </Flex>
      <Table<T>
        {...table}
        data-testid={tableTestId}
        rowKey={(record) => String(record[rowKey])}
        loading={loading ?? result.isFetching}
        dataSource={result.data?.data ?? []}
        onRow={onRow}
        expandable={expandedRowRender && { expandRowByClick: true, expandedRowRender }}
        locale={{
          emptyText: (
            <Empty description={filtered ? empty.noMatch : empty.text} data-testid={empty.testId}>
              {!filtered && empty.action}
            </Empty>
          ),
        }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: result.data?.total_items ?? 0,
          showSizeChanger: pageSizeChanger ?? false,
          showTotal: (total) => totalText?.(total) ?? t('common.total', { total }),
          onChange: paginate,
        }}
        columns={columns}
      />
      {children}
    </Card>
  );
}
