/** Online / offline badge of a device (online = heard within DEVICE_ONLINE_WINDOW_MS, decided by the server). */
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

/** Green "online" or grey "offline"; `testId` lets a test read the state from `data-online`. */
export function OnlineBadge({ online, testId }: { online: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span data-testid={testId} data-online={online}>
      <Badge status={online ? 'success' : 'default'} text={online ? t('devices.online') : t('devices.offline')} />
    </span>
  );
}
