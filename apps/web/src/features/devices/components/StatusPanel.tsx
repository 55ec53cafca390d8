/**
 * Decoded device status (spec §4 "Status value is 40 bits in binary, left padded; each status group reads a
 * slice counted from the right"): the word in binary (`data-testid="status-binary"`) and one row per status line.
 */
import type { TDeviceTwin } from '@tessera/contracts';
import type { HTMLAttributes } from 'react';
import { Card, Descriptions, Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatLocalTime } from '../model/format';
import { type TStatusRow, toStatusRows } from '../model/twin';

/** The status card of telemetry-status. */
export function StatusPanel({ status }: { status: TDeviceTwin['status'] }) {
  const { t, i18n } = useTranslation();
  if (!status) {
    return (
      <Card size="small" title={t('devices.status.title')}>
        <Empty data-testid="status-empty" description={t('devices.status.none')} />
      </Card>
    );
  }
  return (
    <Card size="small" title={t('devices.status.title')} data-testid="status-panel">
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('devices.status.word')}>
          <Typography.Text code data-testid="status-binary" style={{ letterSpacing: 1 }}>
            {status.binary}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('devices.status.value')}>
          <span data-testid="status-value">{new Intl.NumberFormat(i18n.language).format(status.value)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('devices.status.time')}>{formatLocalTime(status.ts)}</Descriptions.Item>
      </Descriptions>
      <Table<TStatusRow>
        data-testid="status-table"
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={toStatusRows(status)}
        locale={{ emptyText: t('devices.status.noGroups') }}
        onRow={(r) => ({ 'data-testid': `status-row-${r.name}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('devices.status.line'), dataIndex: 'name' },
          { title: t('devices.status.bits'), dataIndex: 'bits' },
          { title: t('devices.status.binary'), dataIndex: 'binary', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('devices.status.label'), dataIndex: 'label', render: (v: string | null) => v ?? t('devices.status.undefinedValue') },
          { title: t('devices.status.raw'), dataIndex: 'raw' },
        ]}
      />
    </Card>
  );
}
