/**
 * A rollout's devices (contracts model-deployments.ts): name, Tangram ID, state, the download's progress, the reason
 * of a failure, the attempt and when the state last changed; filtered by state, searched by name or Tangram ID, paged.
 * Reloads every second while the rollout (or a device on the page) is still moving.
 */
import { MODEL_DEPLOYMENT_STATES, type TModelDeploymentState, type TRolloutDevice } from '@tessera/contracts';
import { Empty, Flex, Input, Progress, Select, Table, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListQuery } from '../../../components/usePagedQuery';
import { formatLocalTime } from '../../devices/model/format';
import { devicePercent } from '../model/rolloutProgress';
import { useRolloutDevices } from '../rolloutApi';
import { RolloutStateTag } from './RolloutProgress';

/** Row props for tests: `data-testid="rollout-device-row-<Tangram ID>"` and the row's `data-state`. */
const rowProps = (d: TRolloutDevice) =>
  ({ 'data-testid': `rollout-device-row-${d.tangram_id}`, 'data-state': d.state }) as HTMLAttributes<HTMLElement>;

/** The devices of rollout `rolloutId`; `moving` while the rollout has a device pending or downloading. */
export function RolloutDeviceTable({ rolloutId, moving }: { rolloutId: number; moving: boolean }) {
  const { t } = useTranslation();
  const { query, search, paginate } = useListQuery();
  const [state, setState] = useState<TModelDeploymentState>();
  const devices = useRolloutDevices(rolloutId, { ...query, state }, moving);
  const filtered = Boolean(query.q || state);

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} wrap>
        <Input.Search
          allowClear
          placeholder={t('aiModels.rollout.searchPlaceholder')}
          aria-label={t('aiModels.rollout.searchPlaceholder')}
          onSearch={search}
          style={{ maxWidth: 320 }}
          data-testid="rollout-device-search"
        />
        <Select<TModelDeploymentState>
          allowClear
          placeholder={t('aiModels.rollout.allStates')}
          aria-label={t('aiModels.rollout.state')}
          value={state}
          onChange={(s) => {
            setState(s);
            paginate(1, query.limit);
          }}
          options={MODEL_DEPLOYMENT_STATES.map((s) => ({ value: s, label: t(`aiModels.rolloutStates.${s}`) }))}
          style={{ width: 180 }}
          data-testid="rollout-state-filter"
        />
      </Flex>
      <Table<TRolloutDevice>
        rowKey="tangram_id"
        size="middle"
        loading={devices.isLoading || devices.isPlaceholderData}
        dataSource={devices.data?.data ?? []}
        onRow={rowProps}
        locale={{
          emptyText: (
            <Empty
              description={filtered ? t('aiModels.rollout.noMatch') : t('aiModels.rollout.noDevices')}
              data-testid="rollout-devices-empty"
            />
          ),
        }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: devices.data?.total_items ?? 0,
          hideOnSinglePage: true,
          onChange: paginate,
        }}
        scroll={{ x: 'max-content' }}
        data-testid="rollout-devices"
        columns={[
          { title: t('aiModels.rollout.device'), dataIndex: 'device_name' },
          {
            title: t('aiModels.rollout.tangramId'),
            dataIndex: 'tangram_id',
            render: (id: string) => <Typography.Text code>{id}</Typography.Text>,
          },
          {
            title: t('aiModels.rollout.state'),
            dataIndex: 'state',
            render: (s: TModelDeploymentState, d) => <RolloutStateTag state={s} testId={`rollout-device-state-${d.tangram_id}`} />,
          },
          {
            title: t('aiModels.rollout.progress'),
            key: 'progress',
            width: 180,
            render: (_, d) =>
              d.state === 'downloading' || d.state === 'installed' ? (
                <Progress
                  percent={devicePercent(d)}
                  size="small"
                  status={d.state === 'downloading' ? 'active' : 'success'}
                  data-testid={`rollout-device-progress-${d.tangram_id}`}
                  data-percent={devicePercent(d)}
                />
              ) : (
                '—'
              ),
          },
          {
            title: t('aiModels.rollout.reason'),
            dataIndex: 'reason',
            render: (reason: string | null, d) =>
              d.state === 'failed' && reason ? (
                <Typography.Text type="danger" data-testid={`rollout-device-reason-${d.tangram_id}`}>
                  {reason}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
          { title: t('aiModels.rollout.attempt'), dataIndex: 'attempt', width: 100 },
          { title: t('aiModels.rollout.updatedAt'), dataIndex: 'updated_at', render: (ts: number) => formatLocalTime(ts) },
        ]}
      />
    </Flex>
  );
}
