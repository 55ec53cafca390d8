/**
 * The machine's active alerts (open or acknowledged) over its bound devices, newest first, each linked to its device;
 * refreshed when the account's live alert channel brings an alert of one of those devices.
 */
import type { TAlert } from '@tessera/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLiveAlerts } from '../../../lib/live';
import { alertKeys } from '../../alerts/api';
import { LevelTag, StateTag } from '../../alerts/components/AlertTags';
import { formatLocalTime } from '../../devices/model/format';
import { useActiveAlerts } from '../api';

/** The card; `tangramIds` are the devices bound to the machine that the viewer sees. */
export function MachineAlerts({ tangramIds }: { tangramIds: readonly string[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { alerts, isLoading, isError } = useActiveAlerts(tangramIds);
  useLiveAlerts((m) => {
    if (tangramIds.includes(m.alert.device.tangram_id)) void qc.invalidateQueries({ queryKey: alertKeys.all });
  });
  return (
    <Card size="small" title={t('machines.page.alerts', { count: alerts.length })} data-testid="machine-alerts">
      <Table<TAlert>
        size="small"
        rowKey="id"
        loading={isLoading}
        dataSource={alerts}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: isError ? t('errors.loadFailed') : t('machines.page.noAlerts') }}
        columns={[
          {
            title: t('machines.page.alertLevel'),
            dataIndex: 'level',
            width: 110,
            render: (level: TAlert['level']) => <LevelTag level={level} />,
          },
          {
            title: t('machines.page.alertState'),
            dataIndex: 'state',
            width: 110,
            render: (state: TAlert['state']) => <StateTag state={state} />,
          },
          {
            title: t('machines.page.alertDevice'),
            key: 'device',
            render: (_, a) => <Link to={`/device/detail/${a.device.tangram_id}/telemetry-status`}>{a.device.name}</Link>,
          },
          { title: t('machines.page.alertMessage'), dataIndex: 'message' },
          { title: t('machines.page.alertLastSeen'), dataIndex: 'last_seen_at', width: 180, render: (ts: number) => formatLocalTime(ts) },
        ]}
      />
    </Card>
  );
}
