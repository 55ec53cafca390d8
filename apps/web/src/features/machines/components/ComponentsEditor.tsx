/**
 * The components of a configure form (docs/decisions/machines.md "Configure"): one row per component — name, the
 * product whose devices fill it, the telemetry keys shown for it (from the product's projects' sensors) — added,
 * removed and checked with the contracts' rules. A kept component that is removed or whose product changes loses its
 * bindings when the form is saved: when machines use the configure, removing asks first and a product change is
 * flagged on the row.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MACHINE_COMPONENTS_MAX, MAX_PAGE_LIMIT, type TMachineConfigure } from '@tessera/contracts';
import { Alert, App, Button, Card, Form, type FormInstance, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProducts } from '../../products/api';
import { useProductKeys } from '../api';
import { componentFieldError, componentsError, EMPTY_COMPONENT, type TComponentRow, type TConfigureForm } from '../model/machineForms';

/** The keys multi-select of one row, listing the keys of the row's product. */
function KeysSelect({
  productId,
  value,
  onChange,
  index,
}: {
  productId?: number;
  value?: string[];
  onChange?: (v: string[]) => void;
  index: number;
}) {
  const { t } = useTranslation();
  const product = useProductKeys(productId);
  const listed = new Set(product.keys.map((k) => k.key));
  const options = [
    ...product.keys.map((k) => ({ value: k.key, label: k.unit ? `${k.name} (${k.key}, ${k.unit})` : `${k.name} (${k.key})` })),
    ...(value ?? []).filter((k) => !listed.has(k)).map((k) => ({ value: k, label: k })),
  ];
  return (
    <Select<string[]>
      mode="multiple"
      value={value}
      onChange={onChange}
      options={options}
      loading={product.isLoading}
      disabled={!productId}
      placeholder={productId ? t('machines.configure.keysPlaceholder') : t('machines.configure.productFirst')}
      notFoundContent={t('machines.configure.noKeys')}
      optionFilterProp="label"
      data-testid={`component-keys-${index}`}
    />
  );
}

/** The rows and their add button; `configure` is the configure being edited (null for a new one). */
export function ComponentsEditor({ form, configure }: { form: FormInstance<TConfigureForm>; configure: TMachineConfigure | null }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const products = useProducts({ page: 1, limit: MAX_PAGE_LIMIT });
  const productOptions = (products.data?.data ?? []).map((p) => ({ value: p.id, label: `${p.name} · ${p.model}` }));
  const rows = (Form.useWatch('components', form) ?? []) as TComponentRow[];
  const rowRule = (field: 'name' | 'product_id' | 'keys', index: number) => ({
    validator: async () => {
      const message = componentFieldError(field, index, form.getFieldValue('components') ?? [], t);
      if (message) throw new Error(message);
    },
  });
  const originalProduct = (id?: number) => configure?.components.find((c) => c.id === id)?.product_id;
  /** Removes a row; a kept component of a configure in use first asks, as saving will unbind its devices. */
  const confirmRemove = (row: TComponentRow | undefined, remove: () => void) => {
    if (!configure?.in_use || row?.id === undefined) return remove();
    modal.confirm({
      title: t('machines.configure.removeTitle', { name: row.name }),
      content: t('machines.configure.removeUnbinds'),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'component-remove-confirm' },
      onOk: remove,
    });
  };

  return (
    <Form.List
      name="components"
      rules={[
        {
          validator: async (_rule, list: TComponentRow[]) => {
            const message = componentsError(list, t);
            if (message) throw new Error(message);
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((field, index) => {
            const row = rows[index];
            const reproduced = !!configure?.in_use && row?.id !== undefined && originalProduct(row.id) !== row.product_id;
            return (
              <Card
                key={field.key}
                size="small"
                style={{ marginBottom: 12 }}
                title={t('machines.configure.componentTitle', { n: index + 1 })}
                data-testid={`component-row-${index}`}
                extra={
                  <Button
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={t('machines.configure.removeComponent', { n: index + 1 })}
                    disabled={fields.length <= 1}
                    onClick={() => confirmRemove(row, () => remove(field.name))}
                    data-testid={`component-remove-${index}`}
                  />
                }
              >
                <Form.Item name={[field.name, 'id']} hidden>
                  <Input />
                </Form.Item>
                <Form.Item name={[field.name, 'name']} label={t('machines.configure.componentName')} rules={[rowRule('name', index)]}>
                  <Input data-testid={`component-name-${index}`} />
                </Form.Item>
                <Form.Item name={[field.name, 'product_id']} label={t('machines.configure.product')} rules={[rowRule('product_id', index)]}>
                  <Select<number>
                    showSearch
                    optionFilterProp="label"
                    options={productOptions}
                    loading={products.isLoading}
                    placeholder={t('machines.configure.productPlaceholder')}
                    onChange={() => form.setFieldValue(['components', field.name, 'keys'], [])}
                    data-testid={`component-product-${index}`}
                  />
                </Form.Item>
                {reproduced && (
                  <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('machines.configure.productChangeUnbinds')} />
                )}
                <Form.Item
                  name={[field.name, 'keys']}
                  label={t('machines.configure.keys')}
                  extra={t('machines.configure.keysHint')}
                  rules={[rowRule('keys', index)]}
                >
                  <KeysSelect productId={row?.product_id} index={index} />
                </Form.Item>
              </Card>
            );
          })}
          <Form.ErrorList errors={errors} />
          <Button
            block
            type="dashed"
            icon={<PlusOutlined />}
            disabled={fields.length >= MACHINE_COMPONENTS_MAX}
            onClick={() => add({ ...EMPTY_COMPONENT })}
            data-testid="component-add"
          >
            {t('machines.configure.addComponent', { max: MACHINE_COMPONENTS_MAX })}
          </Button>
        </>
      )}
    </Form.List>
  );
}
