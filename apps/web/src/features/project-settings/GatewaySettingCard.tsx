/**
 * The system tab's "Gateways" card (docs/decisions/device-apis.md "Gateway"): whether a gateway of this project may
 * create a device it names that the project does not have. Off by default: gateways then reach registered devices only.
 */
import { Alert, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGatewaySetting, useSaveGatewaySetting } from './gatewayApi';

/** The card's body; the switch is `data-testid="gateway-creates-devices"`. */
export function GatewaySettingCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const setting = useGatewaySetting(projectId);
  const save = useSaveGatewaySetting(projectId);
  if (setting.isError) return <Alert type="error" showIcon message={t('projectSettings.gateway.loadFailed')} />;
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }}>
      <Space size={8}>
        <Switch
          checked={setting.data?.gateway_creates_devices ?? false}
          loading={setting.isPending || save.isPending}
          onChange={(on) => save.mutate({ gateway_creates_devices: on })}
          aria-label={t('projectSettings.gateway.createsDevices')}
          data-testid="gateway-creates-devices"
        />
        <Typography.Text>{t('projectSettings.gateway.createsDevices')}</Typography.Text>
      </Space>
      <Typography.Text type="secondary">{t('projectSettings.gateway.explain')}</Typography.Text>
      {save.isError && <Alert type="error" showIcon message={t('projectSettings.gateway.saveFailed')} />}
    </Space>
  );
}
