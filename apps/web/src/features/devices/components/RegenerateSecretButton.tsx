/**
 * "Regenerate secret" of the device detail header (vendors; docs/decisions/devices-bulk.md "Regenerating a device's
 * secret"): a confirmation that the device is disconnected and must be reconfigured, then the new secret shown once
 * with a copy button and a warning. The secret lives only in this component's state: closing the dialog forgets it.
 */
import { CheckOutlined, CopyOutlined, KeyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorDialog } from '../../../lib/useErrorDialog';
import { useRegenerateDeviceSecret } from '../controlApi';

/** The button, its confirmation and the one-time view of the new secret. */
export function RegenerateSecretButton({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const showError = useErrorDialog();
  const regenerate = useRegenerateDeviceSecret(tangramId);
  const [secret, setSecret] = useState<string | null>(null);

  const ask = () =>
    modal.confirm({
      title: t('devices.secret.confirmTitle'),
      content: t('devices.secret.confirmContent'),
      okText: t('devices.secret.confirmOk'),
      okButtonProps: { danger: true, 'data-testid': 'device-secret-confirm' },
      cancelButtonProps: { 'data-testid': 'device-secret-cancel' },
      onOk: () =>
        regenerate
          .mutateAsync()
          .then((answer) => setSecret(answer.device_secret))
          .catch((err: unknown) => showError(t('devices.secret.failedTitle'), err)),
    });

  return (
    <>
      <Button icon={<KeyOutlined />} danger onClick={ask} data-testid="device-secret-regenerate">
        {t('devices.secret.button')}
      </Button>
      <Modal
        open={secret !== null}
        title={t('devices.secret.newTitle')}
        destroyOnHidden
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={
          <Button type="primary" onClick={() => setSecret(null)} data-testid="device-secret-done" autoFocus>
            {t('devices.secret.done')}
          </Button>
        }
      >
        <Alert
          type="warning"
          showIcon
          title={t('devices.secret.warning')}
          style={{ marginBottom: 16 }}
          data-testid="device-secret-warning"
        />
        <Descriptions size="small" column={1} layout="vertical" bordered>
          <Descriptions.Item label={t('devices.secret.tangramId')}>
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {tangramId}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('devices.secret.secret')}>
            <Typography.Paragraph
              style={{ wordBreak: 'break-all', marginBottom: 0 }}
              copyable={{
                text: secret ?? '',
                tooltips: [t('devices.secret.copy'), t('devices.secret.copied')],
                icon: [
                  <span key="copy" data-testid="device-secret-copy">
                    <CopyOutlined /> {t('devices.secret.copy')}
                  </span>,
                  <span key="copied" data-testid="device-secret-copied">
                    <CheckOutlined /> {t('devices.secret.copied')}
                  </span>,
                ],
              }}
            >
              <Typography.Text code data-testid="device-secret-value">
                {secret}
              </Typography.Text>
            </Typography.Paragraph>
          </Descriptions.Item>
        </Descriptions>
      </Modal>
    </>
  );
}
