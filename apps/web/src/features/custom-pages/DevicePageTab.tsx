/**
 * /device/detail/{tangramId}/custom-page: the device's project page (spec §2 custom page), for users and vendors,
 * sandboxed and fed with this device's live data (CustomPageFrame). Shown as a tab only when the project has a page.
 */
import { Alert, Empty, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDeviceOutlet } from '../devices/context';
import { useCustomPage } from './api';
import { CustomPageFrame } from './CustomPageFrame';

/** The device detail's custom-page tab. */
export default function DevicePageTab() {
  const { t } = useTranslation();
  const { device } = useDeviceOutlet();
  const page = useCustomPage(device.project_id);
  if (page.isPending) return <Spin data-testid="custom-page-loading" />;
  if (page.isError) return <Alert type="error" message={t('errors.loadFailed')} />;
  if (!page.data) return <Empty description={t('customPages.emptyDevice')} data-testid="custom-page-empty" />;
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }} data-testid="custom-page-heading">
        {page.data.title}
      </Typography.Title>
      <CustomPageFrame
        viewUrl={page.data.view_url}
        viewExpiresAt={page.data.view_expires_at}
        title={page.data.title}
        device={{ tangram_id: device.tangram_id, name: device.name, nickname: device.nickname }}
      />
    </Space>
  );
}
