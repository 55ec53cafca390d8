/**
 * The danger zone of the device (spec §7 clean-data, §5 "Deleting device telemetry needs a password", §8 "password
 * incorrect on clean-data"): deleting every stored value of this device after the vendor types its own password;
 * the answer says how much was deleted.
 */
import { ErrorCode, type TCleanDataResult, ZCleanDataRequest } from '@tessera/contracts';
import { DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../../lib/http';
import { zodRule } from '../../../lib/zodRules';
import { useCleanData } from '../controlApi';

/** The i18n key of a failed clean-data's message. */
function cleanErrorKey(error: unknown): string {
  const code = error instanceof HttpError ? error.code : '';
  if (code === ErrorCode.PasswordIncorrect) return 'deviceControl.clean.passwordIncorrect';
  if (code === ErrorCode.AccountLocked) return 'deviceControl.clean.locked';
  return 'deviceControl.clean.failed';
}

function CleanDataModal({
  tangramId,
  open,
  onClose,
  onDone,
}: {
  tangramId: string;
  open: boolean;
  onClose: () => void;
  onDone: (r: TCleanDataResult) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const clean = useCleanData(tangramId);
  const close = () => {
    clean.reset();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('deviceControl.clean.confirmTitle')}
      onCancel={close}
      onOk={() => form.submit()}
      okText={t('deviceControl.clean.confirm')}
      okButtonProps={{ danger: true, loading: clean.isPending, 'data-testid': 'clean-data-submit' }}
      cancelButtonProps={{ 'data-testid': 'clean-data-cancel' }}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon message={t('deviceControl.clean.warning')} />
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={(v) =>
            clean.mutate(v.password, {
              onSuccess: (result) => {
                onDone(result);
                close();
              },
            })
          }
        >
          <Form.Item name="password" label={t('deviceControl.clean.password')} rules={[zodRule(ZCleanDataRequest, 'password', t)]}>
            <Input.Password autoComplete="current-password" data-testid="clean-data-password" onChange={() => clean.reset()} />
          </Form.Item>
        </Form>
        {clean.error && <Alert type="error" showIcon data-testid="clean-data-error" message={t(cleanErrorKey(clean.error))} />}
      </Space>
    </Modal>
  );
}

/** The danger-zone card (vendors only: the page shows it to vendors). */
export function CleanDataCard({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<TCleanDataResult | null>(null);
  return (
    <Card title={<Typography.Text type="danger">{t('deviceControl.clean.title')}</Typography.Text>} style={{ borderColor: '#ff4d4f' }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t('deviceControl.clean.hint')}</Typography.Text>
        <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)} data-testid="clean-data-open">
          {t('deviceControl.clean.button')}
        </Button>
        {result && (
          <Alert
            type="success"
            showIcon
            data-testid="clean-data-result"
            message={t('deviceControl.clean.done', result)}
            closable
            onClose={() => setResult(null)}
          />
        )}
      </Space>
      <CleanDataModal tangramId={tangramId} open={open} onClose={() => setOpen(false)} onDone={setResult} />
    </Card>
  );
}
