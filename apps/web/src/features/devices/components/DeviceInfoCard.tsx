/**
 * "Device info" (spec §7 remoteControl getDeviceInfo): asks the device itself and shows what it answers — firmware,
 * uptime, signal strength and the sensors it runs with their upload periods — and the round-trip time.
 */
import type { TDeviceInfo } from '@tessera/contracts';
import { InfoCircleOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGetDeviceInfo } from '../controlApi';
import { splitUptime } from '../model/control';
import { formatSeconds } from '../model/format';
import { CommandError } from './CommandError';

function InfoTable({ info }: { info: TDeviceInfo }) {
  const { t, i18n } = useTranslation();
  const uptime = splitUptime(info.uptime_s);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('deviceControl.remote.firmware')}>
          <span data-testid="device-info-firmware">{info.firmware_version}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceControl.remote.uptime')}>
          <span data-testid="device-info-uptime">{t('deviceControl.remote.uptimeValue', uptime)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceControl.remote.rssi')}>
          <span data-testid="device-info-rssi">{info.rssi_dbm} dBm</span>
        </Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={info.sensors}
        data-testid="device-info-sensors"
        columns={[
          { title: t('deviceControl.remote.sensorKey'), dataIndex: 'key' },
          {
            title: t('deviceControl.remote.sensorState'),
            dataIndex: 'enabled',
            render: (on: boolean) => (
              <Tag color={on ? 'green' : 'default'}>{t(on ? 'deviceControl.remote.on' : 'deviceControl.remote.off')}</Tag>
            ),
          },
          {
            title: t('deviceControl.remote.uploadPeriod'),
            dataIndex: 'upload_period_ms',
            render: (ms: number) => (ms ? `${formatSeconds(ms, i18n.language)} s` : '—'),
          },
        ]}
      />
    </Space>
  );
}

/** The device info card. */
export function DeviceInfoCard({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const ask = useGetDeviceInfo(tangramId);
  return (
    <Card
      title={t('deviceControl.remote.infoTitle')}
      extra={
        <Button icon={<InfoCircleOutlined />} loading={ask.isPending} onClick={() => ask.mutate(undefined)} data-testid="control-get-info">
          {t('deviceControl.remote.getInfo')}
        </Button>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {ask.isPending && <Typography.Text type="secondary">{t('deviceControl.remote.waiting')}</Typography.Text>}
        {!ask.isPending && <CommandError error={ask.error} timeoutHint />}
        {!ask.isPending && ask.data && (
          <>
            <InfoTable info={ask.data.result} />
            <Typography.Text type="secondary" data-testid="device-info-latency">
              {t('deviceControl.remote.latency', { ms: ask.data.latency_ms })}
            </Typography.Text>
          </>
        )}
        {ask.isIdle && <Typography.Text type="secondary">{t('deviceControl.remote.infoHint')}</Typography.Text>}
      </Space>
    </Card>
  );
}
