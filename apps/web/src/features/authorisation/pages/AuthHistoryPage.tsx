/**
 * /self-auth/history (spec §2 "Auth-History"; docs/decisions/authorisation.md "States"): every authorisation request
 * the viewer may read (a vendor: its tenant's; a user: its own) with its answer — who asked for what, how, the state,
 * the note, who answered and when — filtered by state, target, period and text, paged, newest first.
 */
import { AUTHZ_STATES, AUTHZ_TARGETS, type TAuthzRequest, type TAuthzRequestQuery } from '@tessera/contracts';
import { DatePicker, Flex, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage, type TListState } from '../../../components/ListPage';
import { useSession } from '../../../lib/useSession';
import { formatLocalTime } from '../../devices/model/format';
import { useAuthzRequests } from '../api';
import { StateTag, TargetCell } from '../components/RequestParts';

type TFilters = Pick<Partial<TAuthzRequestQuery>, 'status' | 'target' | 'q' | 'from' | 'to'>;

/** The page. */
export default function AuthHistoryPage() {
  const { t } = useTranslation();
  const owner = useSession().level !== 'user';
  const [filters, setFilters] = useState<TFilters>({});
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const requests = useAuthzRequests({ ...filters, ...paging });
  const filter = (next: TFilters) => {
    setFilters((f) => ({ ...f, ...next }));
    setPaging((p) => ({ ...p, page: 1 }));
  };
  const onPeriod = (range: [Dayjs | null, Dayjs | null] | null) =>
    filter({ from: range?.[0]?.startOf('day').valueOf(), to: range?.[1]?.endOf('day').valueOf() });

  const list: TListState = {
    query: { ...paging, q: filters.q },
    search: (q) => filter({ q: q.trim() || undefined }),
    paginate: (page, limit) => setPaging({ page, limit }),
  };

  return (
    <ListPage<TAuthzRequest>
      title={t('authz.historyTitle')}
      testId="authz-history"
      list={list}
      result={requests}
      loading={requests.isFetching && !requests.data}
      searchPlaceholder={owner ? t('authz.search') : t('authz.searchMine')}
      searchTestId="authz-filter-q"
      filters={
        <>
          <Select
            allowClear
            placeholder={t('authz.state')}
            aria-label={t('authz.state')}
            style={{ width: 160 }}
            options={AUTHZ_STATES.map((s) => ({ value: s, label: t(`authz.states.${s}`) }))}
            onChange={(status) => filter({ status })}
            data-testid="authz-filter-state"
          />
          <Select
            allowClear
            placeholder={t('authz.target')}
            aria-label={t('authz.target')}
            style={{ width: 160 }}
            options={AUTHZ_TARGETS.map((x) => ({ value: x, label: t(`authz.targetShort.${x}`) }))}
            onChange={(target) => filter({ target })}
            data-testid="authz-filter-target"
          />
          <DatePicker.RangePicker onChange={(r) => onPeriod(r as [Dayjs | null, Dayjs | null] | null)} data-testid="authz-filter-period" />
        </>
      }
      rowPrefix="authz-history"
      table={{ size: 'middle' }}
      empty={{
        text: t('authz.historyNone'),
        noMatch: t('authz.historyEmpty'),
        filtered: Boolean(filters.status || filters.target || filters.from || filters.to),
      }}
      columns={[
        { title: t('authz.asked_at'), dataIndex: 'created_at', render: (ms: number) => formatLocalTime(ms) },
        ...(owner ? [{ title: t('authz.requester'), key: 'requester', render: (_: unknown, r: TAuthzRequest) => r.requester.email }] : []),
        {
          title: t('authz.what'),
          key: 'what',
          render: (_, r) => <TargetCell request={r} linkDevice={owner || r.status === 'allowed'} />,
        },
        { title: t('authz.method'), dataIndex: 'method', render: (m: string) => t(`authz.methods.${m}`) },
        { title: t('authz.state'), key: 'state', render: (_, r) => <StateTag request={r} /> },
        {
          title: t('authz.answer'),
          key: 'answer',
          render: (_, r) =>
            r.decided_at ? (
              <Flex vertical gap={0}>
                <span>{r.note || '—'}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {[r.decided_by, formatLocalTime(r.decided_at)].filter(Boolean).join(' · ')}
                </Typography.Text>
              </Flex>
            ) : (
              '—'
            ),
        },
        {
          title: t('authz.revokedAt'),
          dataIndex: 'revoked_at',
          render: (ms: number | null) => (ms ? formatLocalTime(ms) : '—'),
        },
      ]}
    />
  );
}
