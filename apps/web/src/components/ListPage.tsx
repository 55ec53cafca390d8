/**
 * The console's list page (spec §3 "Lists carry page, limit, total_items"): a card with a title and its actions, a
 * search box (and the page's filters beside it), and a paged table of one kind of record whose empty text says "none
 * yet" (with the page's create button) or "no match" for a search or filter. The empty text shows only once the list
 * has loaded (app/global.css hides it under the spinner). Pages keep their own test ids: `searchTestId` on the search
 * box, `<rowPrefix>-row-<id>` on each row, `empty.testId` on the empty text.
 */
import type { TListQuery } from '@tessera/contracts';
import { Card, Empty, Flex, Input, Table, type TableColumnsType, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { rowTestId } from './rowTestId';

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

/** Props of {@link ListPage}. */
export interface TListPageProps<T extends { id: number | string }> {
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
  /** Row test ids are `<rowPrefix>-row-<id>`. */
  rowPrefix: string;
  columns: TableColumnsType<T>;
  /** The table's size and sideways scroll, when not antd's defaults. */
  table?: Pick<TableProps<T>, 'size' | 'scroll'>;
  empty: TListEmpty;
  /** The card's test id. */
  testId?: string;
  /** Drawers and modals the page opens. */
  children?: ReactNode;
}

/** A list page: title and actions, search and filters, the paged table and its empty text. */
export function ListPage<T extends { id: number | string }>({
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
  empty,
  testId,
  children,
}: TListPageProps<T>) {
  const { t } = useTranslation();
  const { query, search, paginate } = list;
  const filtered = Boolean(query.q) || Boolean(empty.filtered);
  return (
    <Card title={title} extra={extra} data-testid={testId}>
      {notice}
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
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
        rowKey="id"
        loading={loading ?? result.isFetching}
        dataSource={result.data?.data ?? []}
        onRow={rowTestId<T>(rowPrefix)}
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
          showTotal: (total) => t('common.total', { total }),
          onChange: paginate,
        }}
        columns={columns}
      />
      {children}
    </Card>
  );
}
