/** Register a device in a project: serial number (hex) and an optional name, validated by ZDeviceRegister. */
import { type TDeviceRegister, type TDeviceRegistered, ZDeviceRegister } from '@tessera/contracts';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../lib/zodRules';
import { useRegisterDevice } from './api';

interface TProps {
  projectId: number;
  open: boolean;
  onClose: () => void;
  onRegistered: (device: TDeviceRegistered) => void;
}

/** Empty optional name → left out (the server names the device after its serial). */
const toBody = (v: Partial<TDeviceRegister>) => ({ ...v, name: v.name?.trim() ? v.name : undefined });

/** The register modal; hands the answer (with the secret) to `onRegistered`. */
export function RegisterDeviceModal({ projectId, open, onClose, onRegistered }: TProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TDeviceRegister>();
  const register = useRegisterDevice(projectId);
  const submit = (values: TDeviceRegister) =>
    register.mutate(ZDeviceRegister.parse(toBody(values)), {
      onSuccess: (device) => {
        form.resetFields();
        onClose();
        onRegistered(device);
      },
      onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
    });
  return (
    <Modal
      open={open}
      title={t('projects.devices.register')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('projects.devices.register')}
      okButtonProps={{ loading: register.isPending, 'data-testid': 'device-register-submit' }}
      destroyOnHidden
    >
      <Form<TDeviceRegister> form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="serial_number"
          label={t('projects.devices.serial')}
          extra={t('projects.devices.serialHint')}
          rules={[zodRule(ZDeviceRegister, 'serial_number', t, toBody)]}
        >
          <Input data-testid="device-serial" />
        </Form.Item>
        <Form.Item name="name" label={t('projects.devices.nameOptional')} rules={[zodRule(ZDeviceRegister, 'name', t, toBody)]}>
          <Input data-testid="device-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
