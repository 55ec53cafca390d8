/**
 * "Access token" of the device detail header (vendors; docs/decisions/device-apis.md "Access tokens"): a dialog with
 * the device's ThingsBoard-compatible access token masked and when it was issued, and "Issue token" / "Rotate
 * token" — after a confirmation that connected clients are dropped — which shows the new token once with a copy
 * button and a mosquitto_pub example. The full token lives only in this component's state: closing forgets it.
 */
import { ApiOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Modal, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorDialog } from '../../../lib/useErrorDialog';
import { useDeviceCredentials, useRotateDeviceAccessToken } from '../credentialsApi';

/** The mosquitto_pub line a device with `token` would run (ThingsBoard's documented form). */
function exampleCommand(token: string): string {
  return `mosquitto_pub -h ${window.location.hostname} -p 1883 -q 1 -t v1/devices/me/telemetry -u ${token} -m '{"temperature":25}'`;
}

/** The button and its dialog. */
export function AccessTokenButton({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const showError = useErrorDialog();
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const credentials = useDeviceCredentials(tangramId, open);
  const rotate = useRotateDeviceAccessToken(tangramId);
  const issued = credentials.data?.access_token_masked != null;

  const ask = () =>
    modal.confirm({
      title: t(issued ? 'devices.token.rotateTitle' : 'devices.token.issueTitle'),
      content: t(issued ? 'devices.token.rotateContent' : 'devices.token.issueContent'),
      okText: t(issued ? 'devices.token.rotate' : 'devices.token.issue'),
      okButtonProps: { danger: issued, 'data-testid': 'device-token-confirm' },
      onOk: () =>
        rotate
          .mutateAsync()
          .then((answer) => setToken(answer.access_token))
          .catch((err: unknown) => showError(t('devices.token.failedTitle'), err)),
    });
  const close = () => {
    setOpen(false);
    setToken(null);
  };

  return (
    <>
      <Button icon={<ApiOutlined />} onClick={() => setOpen(true)} data-testid="device-token-open">
        {t('devices.token.button')}
      </Button>
      <Modal
        open={open}
        title={t('devices.token.title')}
        destroyOnHidden
        onCancel={close}
        footer={
          <Button type="primary" onClick={close} data-testid="device-token-close">
            {t(token ? 'devices.token.saved' : 'devices.token.close')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('devices.token.explain')}</Typography.Paragraph>
        {credentials.isPending && <Spin />}
        {credentials.isError && <Alert type="error" showIcon title={t('devices.token.loadFailed')} />}
        {credentials.data && (
          <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('devices.token.token')}>
              <Typography.Text code data-testid="device-token-masked">
                {credentials.data.access_token_masked ?? t('devices.token.none')}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('devices.token.issuedAt')}>
              <span data-testid="device-token-issued-at">
                {credentials.data.issued_at ? dayjs(credentials.data.issued_at).format('YYYY-MM-DD HH:mm:ss') : '—'}
              </span>
            </Descriptions.Item>
          </Descriptions>
        )}
        {token && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="device-token-new"
            title={t('devices.token.warning')}
            description={
              <>
                <Typography.Paragraph copyable={{ text: token }} style={{ wordBreak: 'break-all' }}>
                  <Typography.Text code data-testid="device-token-value">
                    {token}
                  </Typography.Text>
                </Typography.Paragraph>
                <Typography.Text type="secondary">{t('devices.token.example')}</Typography.Text>
                <Typography.Paragraph copyable code style={{ wordBreak: 'break-all', marginBottom: 0 }}>
                  {exampleCommand(token)}
                </Typography.Paragraph>
              </>
            }
          />
        )}
        {credentials.data && !token && (
          <Button danger={issued} onClick={ask} loading={rotate.isPending} data-testid="device-token-rotate">
            {t(issued ? 'devices.token.rotate' : 'devices.token.issue')}
          </Button>
        )}
      </Modal>
    </>
  );
}
