/**
 * Declare an undeclared key (docs/decisions/telemetry.md "Undeclared keys"): it becomes a sensor of the type its first
 * value gave it, with the name and unit entered here (validated by ZDeclareUndeclaredKey).
 */
import { type TDeclareUndeclaredKey, type TUndeclaredKey, ZDeclareUndeclaredKey } from '@tessera/contracts';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../lib/zodRules';
import { useDeclareUndeclaredKey } from './undeclaredApi';

type TDeclareForm = Pick<TDeclareUndeclaredKey, 'name' | 'unit'>;

/** The declare modal of `offered` (closed when null). */
export function DeclareKeyModal({
  projectId,
  offered,
  onClose,
}: {
  projectId: number;
  offered: TUndeclaredKey | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TDeclareForm>();
  const declare = useDeclareUndeclaredKey(projectId);
  const submit = (values: TDeclareForm) => {
    if (!offered) return;
    declare.mutate(
      { key: offered.key, name: values.name, unit: values.unit ?? '' },
      {
        onSuccess: (res) => {
          onClose();
          if (res.disabled_excess.length) message.warning(t('sensors.overLimit', { keys: res.disabled_excess.join(', ') }));
          else message.success(t('sensors.undeclared.declared', { key: offered.key }));
        },
        onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
      },
    );
  };
  const rule = (field: keyof TDeclareForm) => [zodRule(ZDeclareUndeclaredKey, field, t)];
  return (
    <Modal
      open={offered !== null}
      title={t('sensors.undeclared.declareTitle', { key: offered?.key ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('sensors.undeclared.declare')}
      okButtonProps={{ loading: declare.isPending, 'data-testid': 'undeclared-declare-submit' }}
      destroyOnHidden
    >
      {offered && (
        <Typography.Paragraph type="secondary">
          {t('sensors.undeclared.declareHelp', { type: t(`sensors.valueTypes.${offered.value_type}`) })}
        </Typography.Paragraph>
      )}
      <Form<TDeclareForm> form={form} layout="vertical" onFinish={submit} preserve={false} initialValues={{ name: offered?.key, unit: '' }}>
        <Form.Item name="name" label={t('common.name')} rules={rule('name')}>
          <Input data-testid="undeclared-declare-name" />
        </Form.Item>
        <Form.Item name="unit" label={t('sensors.unit')} rules={rule('unit')}>
          <Input data-testid="undeclared-declare-unit" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
