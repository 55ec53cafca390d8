/**
 * Create or edit a product (spec §5: name ≤ 32, model ≤ 32, number ≤ 32; class; description; image ≤ 2 MB),
 * validated by the contracts' ZProductCreate. Leaving the page with unsaved changes asks first (§8); Cancel is an
 * explicit discard and closes at once.
 */
import { type TProduct, type TProductCreate, ZProductCreate } from '@tessera/contracts';
import { App, Form, Input, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { zodRule } from '../../lib/zodRules';
import { useCreateProduct, useProductClasses, useUpdateProduct } from './api';
import { ProductImageField } from './ProductImageField';

/** `product` null = create; a product = edit it. Closes itself after a successful save. */
export function ProductFormModal({ open, product, onClose }: { open: boolean; product: TProduct | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TProductCreate>();
  const [dirty, setDirty] = useState(false);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const classes = useProductClasses();
  useUnsavedChangesPrompt(open && dirty);

  useEffect(() => {
    if (!open) return;
    setDirty(false);
    form.setFieldsValue(
      product
        ? {
            name: product.name,
            model: product.model,
            number: product.number,
            class_id: product.class_id,
            description: product.description,
            image_url: product.image_url,
          }
        : { name: '', model: '', number: '', class_id: null, description: '', image_url: null },
    );
  }, [open, product, form]);

  const rule = (field: keyof TProductCreate) => [zodRule(ZProductCreate, field, t)];
  const done = () => {
    void message.success(t(product ? 'products.updated' : 'products.created'));
    setDirty(false);
    onClose();
  };
  const failed = (e: Error) => void message.error(`${t('errors.saveFailed')}: ${e.message}`);
  const submit = (values: TProductCreate) => {
    const body = ZProductCreate.parse({ ...values, class_id: values.class_id ?? null, image_url: values.image_url ?? null });
    if (product) update.mutate({ id: product.id, body }, { onSuccess: done, onError: failed });
    else create.mutate(body, { onSuccess: done, onError: failed });
  };
  return (
    <Modal
      open={open}
      title={product ? t('products.edit') : t('products.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={product ? t('common.save') : t('common.create')}
      okButtonProps={{ loading: create.isPending || update.isPending, 'data-testid': 'product-submit' }}
      destroyOnHidden
    >
      <Form<TProductCreate> form={form} layout="vertical" onFinish={submit} onValuesChange={() => setDirty(true)}>
        <Form.Item name="name" label={t('common.name')} rules={rule('name')}>
          <Input data-testid="product-name" />
        </Form.Item>
        <Form.Item name="model" label={t('products.model')} rules={rule('model')}>
          <Input data-testid="product-model" />
        </Form.Item>
        <Form.Item name="number" label={t('products.number')} rules={rule('number')}>
          <Input data-testid="product-number" />
        </Form.Item>
        <Form.Item name="class_id" label={t('products.class')}>
          <Select
            data-testid="product-class"
            allowClear
            loading={classes.isLoading}
            options={(classes.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
        <Form.Item name="image_url" label={t('products.image')} extra={t('products.imageHint')}>
          <ProductImageField />
        </Form.Item>
        <Form.Item name="description" label={t('common.description')} rules={rule('description')}>
          <Input.TextArea data-testid="product-description" rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
