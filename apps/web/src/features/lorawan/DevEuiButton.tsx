/**
 * "DevEUI" of the device detail header (vendors; docs/decisions/lorawan.md "DevEUI"): a dialog with the device's
 * LoRaWAN DevEUI, which its network server's uplinks name it by — set, change or clear it.
 */
import { WifiOutlined } from '@ant-design/icons';
import { ZDevEui } from '@tessera/contracts';
import { Alert, App, Button, Form, Input, Modal, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorDialog } from '../../lib/useErrorDialog';
import { useDeviceDevEui, useSetDeviceDevEui } from './api';

/** The button and its dialog. */
export function DevEuiButton({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useErrorDialog();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const current = useDeviceDevEui(tangramId, open);
  const set = useSetDeviceDevEui(tangramId);
  const saved = current.data?.dev_eui ?? null;
  useEffect(() => {
    if (open) setDraft(saved ?? '');
  }, [open, saved]);
  const valid = ZDevEui.safeParse(draft).success;

  const save = (devEui: string | null) =>
    set.mutate(
      { dev_eui: devEui },
      {
        onSuccess: () => void message.success(t('common.saved')),
        onError: (err) => showError(t('lorawan.devEuiFailed'), err),
      },
    );

  return (
    <>
      <Button icon={<WifiOutlined />} onClick={() => setOpen(true)} data-testid="device-deveui-open">
        {t('lorawan.devEui')}
      </Button>
      <Modal open={open} title={t('lorawan.devEuiTitle')} destroyOnHidden onCancel={() => setOpen(false)} footer={null}>
        <Typography.Paragraph type="secondary">{t('lorawan.devEuiHint')}</Typography.Paragraph>
        {current.isPending && <Spin />}
        {current.isError && <Alert type="error" showIcon title={t('errors.loadFailed')} />}
        {current.data && (
          <Form layout="vertical" onFinish={() => save(draft)}>
            <Form.Item
              label={t('lorawan.devEui')}
              validateStatus={draft && !valid ? 'error' : undefined}
              help={draft && !valid ? t('lorawan.devEuiInvalid') : undefined}
            >
              <Input
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                placeholder="70B3D57ED0000001"
                data-testid="device-deveui-input"
              />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" disabled={!valid} loading={set.isPending} data-testid="device-deveui-save">
                {t('common.save')}
              </Button>
              {saved && (
                <Button danger onClick={() => save(null)} disabled={set.isPending} data-testid="device-deveui-clear">
                  {t('lorawan.devEuiClear')}
                </Button>
              )}
            </Space>
          </Form>
        )}
      </Modal>
    </>
  );
}
