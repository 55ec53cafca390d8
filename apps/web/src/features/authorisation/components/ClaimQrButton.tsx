/**
 * The vendor's "authorisation QR code" of a device (docs/decisions/authorisation.md "Proofs"): the device's claim
 * code as a QR code of the console link that opens the request form filled in, shown in a modal and saved as a PNG
 * to print on a label. The link uses the address the console is opened by.
 */
import { QrcodeOutlined } from '@ant-design/icons';
import { App, Button, Flex, Modal, QRCode, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveUrl } from '../../../lib/saveFile';
import { useQrClaim } from '../api';

const QR_SIZE_PX = 240;

/** The button and its modal, for device `tangramId` named `name`. */
export function ClaimQrButton({ tangramId, name }: { tangramId: string; name: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const claim = useQrClaim(open ? tangramId : null);
  const link = claim.data ? `${window.location.origin}${claim.data.path}` : '';
  const save = () => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="authz-qr"] canvas');
    if (!canvas) return void message.error(t('authz.qr.notReady'));
    saveUrl(`${tangramId}-qr.png`, canvas.toDataURL('image/png'));
  };
  return (
    <>
      <Button icon={<QrcodeOutlined />} onClick={() => setOpen(true)} data-testid="authz-qr-open">
        {t('authz.qr.button')}
      </Button>
      <Modal
        open={open}
        title={t('authz.qr.title', { name })}
        onCancel={() => setOpen(false)}
        onOk={save}
        okText={t('authz.qr.save')}
        okButtonProps={{ disabled: !claim.data, 'data-testid': 'authz-qr-save' }}
        destroyOnHidden
      >
        <Flex vertical align="center" gap={12}>
          {claim.data ? (
            <div data-testid="authz-qr" data-link={link}>
              <QRCode value={link} size={QR_SIZE_PX} type="canvas" bgColor="#ffffff" />
            </div>
          ) : (
            <Spin />
          )}
          <Typography.Text code>{tangramId}</Typography.Text>
          <Typography.Text type="secondary">{t('authz.qr.help')}</Typography.Text>
        </Flex>
      </Modal>
    </>
  );
}
