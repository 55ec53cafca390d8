/** The hours spent in each ISO 10816-3 zone over the chosen range, with each zone's meaning and share of the time with data. */
import type { THoursByZone } from '@tessera/contracts';
import { Table, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { type TZoneHoursRow, zoneHoursRows } from '../model/zoneHours';
import { ZoneBadge } from './ZoneBadge';

/** The table of `hours`; each row is `motor-health-hours-<zone>`, its hours cell `motor-health-hours-<zone>-value`. */
export function ZoneHoursTable({ hours }: { hours: THoursByZone }) {
  const { t, i18n } = useTranslation();
  const rows = zoneHoursRows(hours);
  const hoursFormat = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 2 });
  const shareFormat = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const total = rows.reduce((sum, r) => sum + r.hours, 0);
  return (
    <Table<TZoneHoursRow>
      data-testid="motor-health-hours"
      size="small"
      pagination={false}
      rowKey="zone"
      dataSource={rows}
      title={() => <Typography.Text strong>{t('devices.motorHealth.hoursTitle')}</Typography.Text>}
      footer={() => (
        <Typography.Text type="secondary" data-testid="motor-health-hours-total">
          {t('devices.motorHealth.hoursTotal', { hours: hoursFormat.format(total) })}
        </Typography.Text>
      )}
      onRow={(r) => ({ 'data-testid': `motor-health-hours-${r.zone}` }) as HTMLAttributes<HTMLElement>}
      columns={[
        {
          key: 'zone',
          title: t('devices.motorHealth.column.zone'),
          render: (_, r) => <ZoneBadge zone={r.zone} testId={`motor-health-hours-${r.zone}-zone`} />,
        },
        {
          key: 'meaning',
          title: t('devices.motorHealth.column.meaning'),
          render: (_, r) => t(`devices.motorHealth.zoneMeaning.${r.zone}`),
        },
        {
          key: 'hours',
          title: t('devices.motorHealth.column.hours'),
          align: 'right',
          render: (_, r) => <span data-testid={`motor-health-hours-${r.zone}-value`}>{hoursFormat.format(r.hours)}</span>,
        },
        { key: 'share', title: t('devices.motorHealth.column.share'), align: 'right', render: (_, r) => shareFormat.format(r.share) },
      ]}
    />
  );
}
