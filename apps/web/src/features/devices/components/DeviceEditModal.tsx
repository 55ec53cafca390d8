/**
 * Edit the device's name and nickname (spec §7 devices PUT, §5 name limits via the contracts' ZDeviceUpdate). A
 * failed save shows the spec §8 "device update failure" dialog: an error title and the server's message.
 */
import { type TDeviceDetail, type TDeviceUpdate, ZDeviceUpdate } from '@tessera/contracts';
import { EditOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorDialog } from '../../../lib/useErrorDialog';
import { zodRule } from '../../../lib/zodRules';
import { useUpdateDevice } from '../controlApi';

/** The "edit" button of the detail header and its modal (vendors). */
export function DeviceEditButton({ device }: { device: TDeviceDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useErrorDialog();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<TDeviceUpdate>();
  const update = useUpdateDevice(device.tangram_id);
  const submit = (values: TDeviceUpdate) =>
    update.mutate(ZDeviceUpdate.parse(values), {
      onSuccess: () => {
        setOpen(false);
        void message.success(t('common.saved'));
      },
      onError: (err) => showError(t('deviceControl.edit.failedTitle'), err),
    });
  return (
    <>
      <Button icon={<EditOutlined />} onClick={() => setOpen(true)} data-testid="device-edit">
        {t('deviceControl.edit.button')}
      </Button>
      <Modal
        open={open}
        title={t('deviceControl.edit.title')}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText={t('common.save')}
        okButtonProps={{ loading: update.isPending, 'data-testid': 'device-edit-save' }}
        destroyOnHidden
      >
        <Form<TDeviceUpdate>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ name: device.name, nickname: device.nickname }}
          onFinish={submit}
        >
          <Form.Item name="name" label={t('devices.field.name')} rules={[zodRule(ZDeviceUpdate, 'name', t)]}>
            <Input data-testid="device-edit-name" />
          </Form.Item>
          <Form.Item name="nickname" label={t('devices.field.nickname')} rules={[zodRule(ZDeviceUpdate, 'nickname', t)]}>
            <Input data-testid="device-edit-nickname" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
