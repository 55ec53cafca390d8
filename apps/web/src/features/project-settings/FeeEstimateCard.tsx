/**
 * The system tab's cloud fee estimate in TWD (spec §9), with its formula spelled out: per sensor the uploads per
 * device per month, then messages and stored values per month and their price.
 */
import type { TFeeEstimate } from '@tessera/contracts';
import { Descriptions, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFeeEstimate } from './api';

const num = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const twd = (n: number) => `NT$ ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The fee estimate of project `projectId`. */
export function FeeEstimateCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const fee = useFeeEstimate(projectId).data;
  if (!fee) return null;
  const monthS = fee.month_days * 86_400;
  return (
    <>
      <Table<TFeeEstimate['sensors'][number]>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={fee.sensors}
        columns={[
          { title: t('projectSettings.fee.sensor'), dataIndex: 'key' },
          {
            title: t('projectSettings.fee.upload'),
            render: (_, s) =>
              s.enabled && s.upload_period_ms > 0 ? `${num(s.upload_period_ms / 1000, 3)} s` : t('projectSettings.fee.off'),
          },
          { title: t('projectSettings.fee.values'), dataIndex: 'value_count' },
          { title: t('projectSettings.fee.perDevice'), render: (_, s) => num(s.messages_per_device, 2) },
        ]}
      />
      <Typography.Paragraph style={{ marginTop: 12 }} data-testid="fee-formula">
        {t('projectSettings.fee.formulaMessages', { seconds: num(monthS), days: fee.month_days, devices: fee.devices })} ={' '}
        <b data-testid="fee-messages">{num(fee.messages_per_month)}</b>
        <br />
        {t('projectSettings.fee.formulaPoints', { devices: fee.devices })} = <b data-testid="fee-points">{num(fee.points_per_month)}</b>
      </Typography.Paragraph>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('projectSettings.fee.messagesCost', { price: fee.price.messages_per_million })}>
          {num(fee.messages_per_month / 1e6, 6)} × {fee.price.messages_per_million} = {twd(fee.cost.messages)}
        </Descriptions.Item>
        <Descriptions.Item label={t('projectSettings.fee.pointsCost', { price: fee.price.points_per_million })}>
          {num(fee.points_per_month / 1e6, 6)} × {fee.price.points_per_million} = {twd(fee.cost.points)}
        </Descriptions.Item>
        <Descriptions.Item
          label={t('projectSettings.fee.storageCost', { price: fee.price.storage_per_gb_month, days: fee.storage.horizon_days })}
        >
          <span data-testid="fee-storage">
            {num(fee.storage.bytes_kept / 1e9, 3)} GB × {fee.price.storage_per_gb_month} = {twd(fee.cost.storage)}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('projectSettings.fee.total')}>
          <b data-testid="fee-total">{twd(fee.cost.total)}</b>
        </Descriptions.Item>
      </Descriptions>
    </>
  );
}
