/** One line naming a subscription's levels and channels ("Alert, Remind · Email"). */
import type { TSubscriptionSettings } from '@tessera/contracts';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The summary text, strong. */
export function SubscriptionSummary({ settings }: { settings: TSubscriptionSettings }) {
  const { t } = useTranslation();
  const levels = settings.levels.map((l) => t(`notifications.levels.${l}`)).join(t('notifications.listSeparator'));
  const channels = settings.channels.map((c) => t(`notifications.channels.${c}`)).join(t('notifications.listSeparator'));
  return <Typography.Text strong>{`${levels} · ${channels}`}</Typography.Text>;
}
