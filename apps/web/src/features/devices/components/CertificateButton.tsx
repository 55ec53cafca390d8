/**
 * "Certificate" of the device detail header (vendors; docs/deployment.md "Certificate login"): a dialog with the
 * SHA-256 fingerprint of the X.509 client certificate the device may log in with over MQTT TLS instead of its secret,
 * a field to register one (as `openssl x509 -noout -fingerprint -sha256` prints it) and a revoke button — after a
 * confirmation that a device connected with it is dropped.
 */
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { ZCertificateFingerprint } from '@tessera/contracts';
import { Alert, App, Button, Descriptions, Input, Modal, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorDialog } from '../../../lib/useErrorDialog';
import { useDeviceCertificate, useRegisterDeviceCertificate, useRevokeDeviceCertificate } from '../certificateApi';

/** The button and its dialog. */
export function CertificateButton({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const showError = useErrorDialog();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const certificate = useDeviceCertificate(tangramId, open);
  const register = useRegisterDeviceCertificate(tangramId);
  const revoke = useRevokeDeviceCertificate(tangramId);
  const isValid = ZCertificateFingerprint.safeParse(input).success;
  const registered = certificate.data?.fingerprint ?? null;

  const save = () =>
    register
      .mutateAsync({ fingerprint: input })
      .then(() => setInput(''))
      .catch((err: unknown) => showError(t('devices.certificate.failedTitle'), err));
  const askRevoke = () =>
    modal.confirm({
      title: t('devices.certificate.revokeTitle'),
      content: t('devices.certificate.revokeContent'),
      okText: t('devices.certificate.revoke'),
      okButtonProps: { danger: true, 'data-testid': 'device-certificate-revoke-confirm' },
      onOk: () => revoke.mutateAsync().catch((err: unknown) => showError(t('devices.certificate.revokeFailedTitle'), err)),
    });

  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} onClick={() => setOpen(true)} data-testid="device-certificate-open">
        {t('devices.certificate.button')}
      </Button>
      <Modal
        open={open}
        title={t('devices.certificate.title')}
        destroyOnHidden
        onCancel={() => setOpen(false)}
        footer={
          <Button type="primary" onClick={() => setOpen(false)} data-testid="device-certificate-close">
            {t('devices.certificate.close')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('devices.certificate.explain')}</Typography.Paragraph>
        {certificate.isPending && <Spin />}
        {certificate.isError && <Alert type="error" showIcon title={t('devices.certificate.loadFailed')} />}
        {certificate.data && (
          <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('devices.certificate.fingerprint')}>
              <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="device-certificate-fingerprint">
                {registered ?? t('devices.certificate.none')}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('devices.certificate.registeredAt')}>
              {certificate.data.registered_at ? dayjs(certificate.data.registered_at).format('YYYY-MM-DD HH:mm:ss') : '—'}
            </Descriptions.Item>
          </Descriptions>
        )}
        {certificate.data && (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text>{t(registered ? 'devices.certificate.replaceLabel' : 'devices.certificate.registerLabel')}</Typography.Text>
            <Input
              value={input}
              onChange={(e) => setInput(e.target.value)}
              placeholder="sha256 Fingerprint=AB:CD:…"
              status={input && !isValid ? 'error' : undefined}
              aria-label={t('devices.certificate.fingerprint')}
              data-testid="device-certificate-input"
            />
            {input && !isValid && <Typography.Text type="danger">{t('devices.certificate.invalid')}</Typography.Text>}
            <Space wrap>
              <Button
                type="primary"
                disabled={!isValid}
                loading={register.isPending}
                onClick={save}
                data-testid="device-certificate-register"
              >
                {t('devices.certificate.register')}
              </Button>
              {registered && (
                <Button danger loading={revoke.isPending} onClick={askRevoke} data-testid="device-certificate-revoke">
                  {t('devices.certificate.revoke')}
                </Button>
              )}
            </Space>
          </Space>
        )}
      </Modal>
    </>
  );
}
