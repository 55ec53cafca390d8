/**
 * /admin/storage (docs/decisions/telemetry-storage.md "Sizes"): the platform's telemetry on disk — points stored, raw
 * hot and compressed bytes, rollups, bytes per point, growth per day — and the storage job's last runs (compression
 * and retention), newest first, with any error a run ended on. Only the platform admin: the route guard sends others
 * away before the page loads (`LEVEL_ROUTES` in contracts).
 */
import type { TStorageRun } from '@tessera/contracts';
import { Card, Empty, Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageError } from '../../../components/PageState';
import { formatLocalTime } from '../../devices/model/format';
import { useAdminStorage } from '../../telemetry-store/api';
import { StorageUsageCard } from '../../telemetry-store/StorageUsageCard';

const num = (n: number) => n.toLocaleString('en-US');

/** The page. */
export default function StoragePage() {
  const { t } = useTranslation();
  const storage = useAdminStorage();
  if (storage.error) return <PageError error={storage.error} />;
  const columns: TableColumnsType<TStorageRun> = [
    { title: t('admin.storage.startedAt'), dataIndex: 'started_at', render: (at: number) => formatLocalTime(at) },
    {
      title: t('admin.storage.finishedAt'),
      dataIndex: 'finished_at',
      render: (at: number | null) => (at === null ? t('admin.storage.unfinished') : formatLocalTime(at)),
    },
    { title: t('admin.storage.daysCompressed'), dataIndex: 'days_compressed', align: 'right', render: num },
    { title: t('admin.storage.pointsCompressed'), dataIndex: 'points_compressed', align: 'right', render: num },
    { title: t('admin.storage.rawPointsRemoved'), dataIndex: 'raw_points_removed', align: 'right', render: num },
    { title: t('admin.storage.rollupRowsRemoved'), dataIndex: 'rollup_rows_removed', align: 'right', render: num },
    {
      title: t('admin.storage.outcome'),
      dataIndex: 'error',
      render: (error: string | null) => (error === null ? t('admin.storage.ok') : <Typography.Text type="danger">{error}</Typography.Text>),
    },
  ];
  return (
    <>
      <Card title={t('admin.storage.usageTitle')} loading={storage.isPending} data-testid="admin-storage">
        {storage.data && (
          <>
            <StorageUsageCard usage={storage.data.usage} />
            <p style={{ marginTop: 8, color: 'var(--ant-color-text-secondary)' }}>{t('telemetryStore.usage.estimated')}</p>
          </>
        )}
      </Card>
      <Card title={t('admin.storage.runsTitle')} style={{ marginTop: 16 }}>
        <Table<TStorageRun>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={storage.data?.runs ?? []}
          loading={storage.isPending}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(run) => ({ 'data-testid': `admin-storage-run-${run.id}` }) as React.HTMLAttributes<HTMLElement>}
          locale={{ emptyText: <Empty description={t('admin.storage.noRuns')} data-testid="admin-storage-no-runs" /> }}
        />
      </Card>
    </>
  );
}
