/**
 * A model's deployments, newest first (contracts model-deployments.ts): the revision, who deployed it and when, how
 * many devices and how far it is (bar and installed · failed · in progress); the revision links to its page. Paged; reloads every
 * second while one of them still has a device moving.
 */
import type { TRollout } from '@tessera/contracts';
import { Empty, Flex, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { rowTestId } from '../../../components/rowTestId';
import { useListQuery } from '../../../components/usePagedQuery';
import { formatLocalTime } from '../../devices/model/format';
import { rolloutPath } from '../model/paths';
import { useRollouts } from '../rolloutApi';
import { RolloutCountsText, RolloutProgressBar } from './RolloutProgress';

/** The deployments of model `modelId`. */
export function RolloutTable({ modelId }: { modelId: number }) {
  const { t } = useTranslation();
  const { query, paginate } = useListQuery();
  const rollouts = useRollouts({ page: query.page, limit: query.limit, model_id: modelId });

  return (
    <Table<TRollout>
      rowKey="id"
      size="middle"
      loading={rollouts.isLoading || rollouts.isPlaceholderData}
      dataSource={rollouts.data?.data ?? []}
      onRow={rowTestId('rollout')}
      locale={{ emptyText: <Empty description={t('aiModels.rollouts.empty')} data-testid="rollouts-empty" /> }}
      pagination={{
        current: query.page,
        pageSize: query.limit,
        total: rollouts.data?.total_items ?? 0,
        hideOnSinglePage: true,
        onChange: paginate,
      }}
      scroll={{ x: 'max-content' }}
      columns={[
        {
          title: t('aiModels.rollouts.revision'),
          dataIndex: 'revision',
          render: (n: number, r) => (
            <Link to={rolloutPath(r)} data-testid={`rollout-open-${r.id}`}>
              {t('aiModels.revisions.number', { revision: n })}
            </Link>
          ),
        },
        {
          title: t('aiModels.rollouts.createdBy'),
          dataIndex: 'created_by',
          render: (by: TRollout['created_by']) => by?.email ?? t('aiModels.revisions.removedAccount'),
        },
        { title: t('aiModels.rollouts.createdAt'), dataIndex: 'created_at', render: (ts: number) => formatLocalTime(ts) },
        { title: t('aiModels.rollouts.deviceCount'), dataIndex: 'device_count', width: 100 },
        {
          title: t('aiModels.rollouts.progress'),
          key: 'progress',
          width: 280,
          render: (_, r) => (
            <Flex vertical gap={2}>
              <RolloutProgressBar counts={r.counts} small testId={`rollout-progress-${r.id}`} />
              <RolloutCountsText counts={r.counts} />
            </Flex>
          ),
        },
      ]}
    />
  );
}
