/**
 * Product functions (spec §7 `GET/PUT projects/profile/product/functions/{id}`): one switch per platform capability
 * the product's devices use (ZProductFunctions; docs/decisions/catalogue.md).
 */
import { PRODUCT_FUNCTION_KEYS, type TProduct, type TProductFunctions, ZProductFunctions } from '@tessera/contracts';
import { App, Form, Modal, Spin, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useProductFunctions, useSaveProductFunctions } from './api';

/** The modal for `product` (closed when null). */
export function ProductFunctionsModal({ product, onClose }: { product: TProduct | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TProductFunctions>();
  const current = useProductFunctions(product?.id ?? null);
  const save = useSaveProductFunctions();

  useEffect(() => {
    if (current.data) form.setFieldsValue(current.data.functions);
  }, [current.data, form]);

  const submit = (values: TProductFunctions) => {
    if (!product) return;
    save.mutate(
      { id: product.id, functions: ZProductFunctions.parse(values) },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          onClose();
        },
        onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
      },
    );
  };

  return (
    <Modal
      open={product !== null}
      title={t('products.functions.title', { name: product?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      okButtonProps={{ loading: save.isPending, disabled: !current.data, 'data-testid': 'functions-submit' }}
      forceRender
    >
      <Spin spinning={current.isFetching}>
        <Form<TProductFunctions> form={form} layout="horizontal" labelCol={{ span: 10 }} onFinish={submit}>
          {PRODUCT_FUNCTION_KEYS.map((key) => (
            <Form.Item
              key={key}
              name={key}
              label={t(`products.functions.${key}`)}
              valuePropName="checked"
              extra={t(`products.functions.${key}Hint`)}
            >
              <Switch data-testid={`function-${key}`} />
            </Form.Item>
          ))}
        </Form>
      </Spin>
    </Modal>
  );
}
