/** The one-time view of a registered device's Tangram ID and secret (the secret is stored hashed: never shown again). */
import type { TDeviceRegistered } from '@tessera/contracts';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Open while `device` is set; `onClose` forgets it. */
export function SecretOnceModal({ device, onClose }: { device: TDeviceRegistered | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={device !== null}
      destroyOnHidden
      title={t('projects.devices.registeredTitle')}
      closable={false}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="device-secret-close">
          {t('projects.devices.savedIt')}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={t('projects.devices.onceWarning')} style={{ marginBottom: 16 }} />
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('projects.devices.tangramId')}>
          <Typography.Text copyable code data-testid="device-tangram-id">
            {device?.tangram_id}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('projects.devices.secret')}>
          <Typography.Text copyable code data-testid="device-secret">
            {device?.device_secret}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
