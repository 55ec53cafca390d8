/**
 * The caller's push-notification switch for this device (spec §7 `PUT devices/configFCMStatus`). Only the
 * preference is stored; delivery comes with the mobile app (docs/decisions/device-control.md).
 */
import { BellOutlined } from '@ant-design/icons';
import { App, Space, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFcmStatus, useSetFcmStatus } from '../controlApi';

/** A labelled switch; `data-testid="fcm-switch"`. */
export function PushSwitch({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const status = useFcmStatus(tangramId);
  const set = useSetFcmStatus(tangramId);
  return (
    <Tooltip title={t('deviceControl.push.hint')}>
      <Space size={6}>
        <BellOutlined />
        <Typography.Text>{t('deviceControl.push.label')}</Typography.Text>
        <Switch
          size="small"
          checked={status.data?.enabled ?? false}
          loading={status.isLoading || set.isPending}
          onChange={(on) => set.mutate(on, { onError: () => void message.error(t('errors.saveFailed')) })}
          data-testid="fcm-switch"
        />
      </Space>
    </Tooltip>
  );
}
