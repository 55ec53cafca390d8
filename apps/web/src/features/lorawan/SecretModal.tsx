/**
 * An integration's webhook URL and secret, shown once after adding it or giving it a new secret, with where each goes
 * in the network server: ChirpStack's HTTP integration (event endpoint URL, a header, JSON encoding) or The Things
 * Stack's custom webhook (base URL, an additional header, JSON format, uplink messages on).
 */
import { LORAWAN_SECRET_HEADER, type TLorawanIntegrationWithSecret } from '@tessera/contracts';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The full URL the network server POSTs to, on the console's origin (the API's). */
export function webhookUrl(path: string): string {
  return `${window.location.origin}${path}`;
}

/** Open while `secret` is set. */
export function SecretModal({ secret, onClose }: { secret: TLorawanIntegrationWithSecret | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={secret !== null}
      closable={false}
      maskClosable={false}
      width={640}
      title={t('lorawan.secretTitle')}
      footer={
        <Button type="primary" onClick={onClose} data-testid="lorawan-secret-close">
          {t('lorawan.savedIt')}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={t('lorawan.secretOnce')} style={{ marginBottom: 16 }} />
      {secret && (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('lorawan.url')}>
            <Typography.Text copyable code data-testid="lorawan-secret-url" style={{ wordBreak: 'break-all' }}>
              {webhookUrl(secret.webhook_path)}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('lorawan.header')}>
            <Typography.Text copyable code>
              {LORAWAN_SECRET_HEADER}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('lorawan.secret')}>
            <Typography.Text copyable code data-testid="lorawan-secret" style={{ wordBreak: 'break-all' }}>
              {secret.secret}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      )}
      {secret && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
          {t(`lorawan.setup.${secret.network_server}`, { header: LORAWAN_SECRET_HEADER })}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
