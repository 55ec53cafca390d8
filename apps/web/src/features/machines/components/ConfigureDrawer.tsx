/**
 * Create or edit a machine configure (docs/decisions/machines.md): name, description, picture (the product image
 * upload) and the components editor. The contracts' rules show on their fields; the server's refusals land on the
 * field they name (name taken, a product that is not the organisation's, a picture of another organisation) or in a
 * dialog (plan limit). Closing with unsaved edits asks first, and so does leaving the page.
 */
import { ErrorCode, type TMachineConfigure } from '@tessera/contracts';
import { App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormActions, FormDrawer } from '../../../components/FormDrawer';
import type { HttpError } from '../../../lib/http';
import { confirmDiscard, useUnsavedChangesPrompt } from '../../../lib/useUnsavedChangesPrompt';
import { ProductImageField } from '../../products/ProductImageField';
import { useSaveMachineConfigure } from '../api';
import { configureBodyOf, configureFieldError, configureFormOf, indexesIn, type TConfigureForm } from '../model/machineForms';
import { ComponentsEditor } from './ComponentsEditor';

interface TProps {
  /** undefined = closed, null = a new configure, a configure = edit it. */
  configure: TMachineConfigure | null | undefined;
  onClose: () => void;
}

/** The form inside the drawer; mounted per opened configure so its initial values are that configure's. */
function ConfigureForm({ configure, onClose }: { configure: TMachineConfigure | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<TConfigureForm>();
  const save = useSaveMachineConfigure();
  const initial = configureFormOf(configure);
  const values = Form.useWatch([], form) as TConfigureForm | undefined;
  const dirty = !!values && JSON.stringify(configureBodyOf({ ...initial, ...values })) !== JSON.stringify(configureBodyOf(initial));
  useUnsavedChangesPrompt(dirty);

  const close = () => (dirty ? confirmDiscard(modal, t, onClose) : onClose());
  const fieldRule = (field: 'name' | 'description') => ({
    validator: async (_rule: unknown, value: unknown) => {
      const error = configureFieldError(field, value, t);
      if (error) throw new Error(error);
    },
  });
  const refused = (err: HttpError) => {
    if (err.status === 409) return form.setFields([{ name: 'name', errors: [t('machines.configure.nameTaken')] }]);
    if (err.code === ErrorCode.PlanLimit) return modal.error({ title: t('machines.planLimitTitle'), content: err.message });
    const products = indexesIn(err.details, 'components').filter((d) => d.rest === '/product_id');
    if (err.status === 404 && products.length) {
      return form.setFields(
        products.map((d) => ({ name: ['components', d.index, 'product_id'], errors: [t('machines.configure.productNotFound')] })),
      );
    }
    if (err.status === 404 && !err.details) return form.setFields([{ name: 'image_url', errors: [t('machines.configure.imageNotFound')] }]);
    modal.error({ title: t('errors.saveFailed'), content: err.message });
  };
  const submit = (v: TConfigureForm) =>
    save.mutate(
      { id: configure?.id, body: configureBodyOf(v) },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          onClose();
        },
        onError: (e) => refused(e as HttpError),
      },
    );

  return (
    <Form<TConfigureForm> form={form} layout="vertical" initialValues={initial} onFinish={submit} scrollToFirstError>
      <Form.Item name="name" label={t('common.name')} rules={[fieldRule('name')]}>
        <Input data-testid="configure-name" />
      </Form.Item>
      <Form.Item name="description" label={t('common.description')} rules={[fieldRule('description')]}>
        <Input.TextArea rows={2} data-testid="configure-description" />
      </Form.Item>
      <Form.Item name="image_url" label={t('machines.configure.picture')} extra={t('machines.configure.pictureHint')}>
        <ProductImageField />
      </Form.Item>
      <ComponentsEditor form={form} configure={configure} />
      <FormActions onCancel={close} saving={save.isPending} dirty={dirty} testIdPrefix="configure" />
    </Form>
  );
}

/** The drawer. */
export function ConfigureDrawer({ configure, onClose }: TProps) {
  const { t } = useTranslation();
  return (
    <FormDrawer
      open={configure !== undefined}
      onClose={onClose}
      title={t(configure ? 'machines.configure.editTitle' : 'machines.configure.createTitle', { name: configure?.name ?? '' })}
    >
      {configure !== undefined && <ConfigureForm key={configure?.id ?? 'new'} configure={configure} onClose={onClose} />}
    </FormDrawer>
  );
}
