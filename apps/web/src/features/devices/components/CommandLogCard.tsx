/** "Recent commands": the device's remote-control audit log, newest first (a user sees only its own commands). */
import type { TCommandOutcome, TDeviceCommandLog } from '@tessera/contracts';
import { Card, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMANDS_PAGE_SIZE, useCommandLog } from '../controlApi';
import { formatLocalTime } from '../model/format';

const OUTCOME_COLOR: Record<TCommandOutcome, string> = { ok: 'green', device_error: 'red', timeout: 'orange', offline: 'default' };

/** The command log card. */
export function CommandLogCard({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useCommandLog(tangramId, page);
  return (
    <Card title={t('deviceControl.log.title')}>
      <Table<TDeviceCommandLog>
        size="small"
        rowKey="req_id"
        loading={log.isLoading}
        dataSource={log.data?.data ?? []}
        data-testid="command-log"
        locale={{ emptyText: t('deviceControl.log.empty') }}
        pagination={{
          current: page,
          pageSize: COMMANDS_PAGE_SIZE,
          total: log.data?.total_items ?? 0,
          onChange: setPage,
          hideOnSinglePage: true,
        }}
        onRow={(row) => ({ 'data-testid': `command-row-${row.name}-${row.outcome}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('deviceControl.log.time'), dataIndex: 'created_at', render: (ts: number) => formatLocalTime(ts) },
          { title: t('deviceControl.log.command'), dataIndex: 'name' },
          {
            title: t('deviceControl.log.params'),
            dataIndex: 'params',
            render: (p: Record<string, unknown>) =>
              Object.keys(p).length ? <Typography.Text code>{JSON.stringify(p)}</Typography.Text> : '—',
          },
          {
            title: t('deviceControl.log.outcome'),
            dataIndex: 'outcome',
            render: (o: TCommandOutcome, row) => (
              <Tag color={OUTCOME_COLOR[o]} title={row.error ?? undefined}>
                {t(`deviceControl.log.outcomes.${o}`)}
              </Tag>
            ),
          },
          {
            title: t('deviceControl.log.latency'),
            dataIndex: 'latency_ms',
            render: (ms: number | null) => (ms === null ? '—' : `${ms} ms`),
          },
          { title: t('deviceControl.log.by'), dataIndex: 'account_email', render: (e: string | null) => e ?? '—' },
        ]}
      />
    </Card>
  );
}
