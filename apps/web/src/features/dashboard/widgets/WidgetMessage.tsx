/** What a widget shows instead of data: its device is gone from the viewer's sight, nothing yet, or loading. */
import { Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Text } from '../../../components/Text';

/** The device of the widget may not be seen (any more). */
export function DeviceGone({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  return (
    <Text type="warning" testId="widget-device-gone">
      {t('dashboard.deviceGone', { id: tangramId.slice(-12) })}
    </Text>
  );
}

/** No data yet. */
export function NoData() {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noData')} />;
}

/** Loading. */
export function Loading() {
  return <Spin size="small" />;
}
