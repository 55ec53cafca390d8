/**
 * The caller's push-notification switch for this device (spec §7 `PUT devices/configFCMStatus`; docs/decisions/
 * device-control.md "Push switch"). Turning it on subscribes this browser to Web Push (service worker, permission,
 * VAPID key) and registers it; from then on the device's alerts reach this browser as notifications. When the
 * browser cannot (no Push API, permission refused, push service unreachable) the switch stays off and says why.
 */
import { BellOutlined } from '@ant-design/icons';
import { App, Space, Switch, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchPushKey, registerThisBrowser, useFcmStatus, useSetFcmStatus } from '../controlApi';
import { subscribeThisBrowser, type TPushFailure } from '../model/webPush';

const FAILURE_KEYS: Record<TPushFailure, string> = {
  unsupported: 'deviceControl.push.unsupported',
  denied: 'deviceControl.push.denied',
  failed: 'deviceControl.push.failed',
};

/** A labelled switch; `data-testid="fcm-switch"`; a refusal shows `data-testid="push-problem"`. */
export function PushSwitch({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const status = useFcmStatus(tangramId);
  const set = useSetFcmStatus(tangramId);
  const [subscribing, setSubscribing] = useState(false);

  const turnOn = async () => {
    setSubscribing(true);
    try {
      const outcome = await subscribeThisBrowser((await fetchPushKey()).public_key);
      if (!outcome.ok) {
        void message.error({ content: <span data-testid="push-problem">{t(FAILURE_KEYS[outcome.reason])}</span>, duration: 8 });
        return;
      }
      await registerThisBrowser(outcome.subscription);
      await set.mutateAsync(true);
    } catch {
      void message.error(t('errors.saveFailed'));
    } finally {
      setSubscribing(false);
    }
  };

  return (
    <Tooltip title={t('deviceControl.push.hint')}>
      <Space size={6}>
        <BellOutlined />
        <Typography.Text>{t('deviceControl.push.label')}</Typography.Text>
        <Switch
          size="small"
          checked={status.data?.enabled ?? false}
          loading={status.isLoading || set.isPending || subscribing}
          onChange={(on) => {
            if (on) void turnOn();
            else set.mutate(false, { onError: () => void message.error(t('errors.saveFailed')) });
          }}
          aria-label={t('deviceControl.push.label')}
          data-testid="fcm-switch"
        />
      </Space>
    </Tooltip>
  );
}
