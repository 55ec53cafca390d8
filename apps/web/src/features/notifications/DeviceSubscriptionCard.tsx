/**
 * "Alert notifications" card of the device detail: the caller's own subscription of this device. Until one is saved the device follows the
 * caller's project subscription, which the card names; "follow project" deletes the device's own.
 */
import { BellOutlined } from '@ant-design/icons';
import type { TDeviceSubscription, TSubscriptionSettings } from '@tessera/contracts';
import { Alert, App, Button, Card, Skeleton, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceSubscription, useSaveDeviceSubscription } from './api';
import { useAccountLinkStatus } from '../line/api';
import { NO_SETTINGS, reachesSomeone } from './settings';
import { SubscriptionForm } from './SubscriptionForm';
import { SubscriptionSummary } from './SubscriptionSummary';

/** The card; `data-testid="device-subscription"`. */
export function DeviceSubscriptionCard({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const sub = useDeviceSubscription(tangramId);
  const link = useAccountLinkStatus();
  const { save, reset } = useSaveDeviceSubscription(tangramId);
  const initial = useMemo(() => startingPoint(sub.data), [sub.data]);
  const done = { onSuccess: () => void message.success(t('common.saved')), onError: () => void message.error(t('errors.saveFailed')) };

  return (
    <Card
      size="small"
      title={
        <span>
          <BellOutlined /> {t('notifications.device.title')}
        </span>
      }
      data-testid="device-subscription"
    >
      {sub.isLoading && <Skeleton active paragraph={{ rows: 3 }} />}
      {sub.isError && <Alert type="error" showIcon message={t('errors.loadFailed')} />}
      {sub.data && (
        <>
          <Typography.Paragraph type="secondary" data-testid="device-subscription-state">
            {sub.data.saved ? (
              t('notifications.device.own')
            ) : sub.data.inherited && reachesSomeone(sub.data.inherited) ? (
              <>
                {t('notifications.device.inherits')} <SubscriptionSummary settings={sub.data.inherited} />
              </>
            ) : (
              t('notifications.device.none')
            )}
          </Typography.Paragraph>
          <SubscriptionForm
            initial={initial}
            lineLinked={link.data?.linked ?? false}
            saving={save.isPending}
            onSave={(body) => save.mutate(body, done)}
            testId="device-subscription"
            extra={
              sub.data.saved && (
                <Button loading={reset.isPending} onClick={() => reset.mutate(undefined, done)} data-testid="device-subscription-reset">
                  {t('notifications.device.followProject')}
                </Button>
              )
            }
          />
        </>
      )}
    </Card>
  );
}

/** What the form starts from: the device's own subscription, else the project one it follows, else nothing. */
function startingPoint(sub: TDeviceSubscription | undefined): TSubscriptionSettings {
  if (!sub) return NO_SETTINGS;
  const from = sub.saved ? sub : (sub.inherited ?? NO_SETTINGS);
  return { levels: from.levels, channels: from.channels };
}
