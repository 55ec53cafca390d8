/**
 * The vendor's "Gateway" switch of the device page (docs/decisions/device-apis.md "Gateway"): a gateway may publish
 * for the devices behind it with ThingsBoard's gateway API. Changing it closes the device's connections, so it asks
 * first.
 */
import { ApartmentOutlined } from '@ant-design/icons';
import { App, Popconfirm, Space, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSetGatewayFlag } from '../gatewayApi';

/** A labelled switch, `data-testid="gateway-switch"`; confirming with `data-testid="gateway-switch-confirm"`. */
export function GatewaySwitch({ tangramId, isGateway }: { tangramId: string; isGateway: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const set = useSetGatewayFlag(tangramId);
  return (
    <Tooltip title={t('devices.gateway.hint')}>
      <Space size={6}>
        <ApartmentOutlined />
        <Typography.Text>{t('devices.gateway.label')}</Typography.Text>
        <Popconfirm
          title={isGateway ? t('devices.gateway.offTitle') : t('devices.gateway.onTitle')}
          description={t('devices.gateway.reconnect')}
          okText={t('devices.gateway.confirm')}
          cancelText={t('devices.gateway.cancel')}
          okButtonProps={{ 'data-testid': 'gateway-switch-confirm' }}
          onConfirm={() => set.mutate(!isGateway, { onError: () => void message.error(t('devices.gateway.saveFailed')) })}
        >
          <Switch
            size="small"
            checked={isGateway}
            loading={set.isPending}
            aria-label={t('devices.gateway.label')}
            data-testid="gateway-switch"
          />
        </Popconfirm>
      </Space>
    </Tooltip>
  );
}
