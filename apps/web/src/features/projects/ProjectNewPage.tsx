/**
 * /project/new (spec §2, §3 Project): name, description, product (products/catalog), hardware module
 * (template tangramProducts, searchable) and device authorisation method; validated by ZProjectCreate.
 */
import { DEVICE_AUTHZ_METHODS, type TProjectCreate, ZProjectCreate } from '@tessera/contracts';
import { App, Button, Card, Form, Input, Radio, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { zodRule } from '../../lib/zodRules';
import { useProductCatalog } from '../products/api';
import { useCreateProject, useTangramProducts } from './api';

/** The new-project form. */
export default function ProjectNewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [moduleQuery, setModuleQuery] = useState<string>();
  const catalog = useProductCatalog();
  const modules = useTangramProducts(moduleQuery);
  const create = useCreateProject();
  const [dirty, setDirty] = useState(false);
  const [createdId, setCreatedId] = useState<number>();
  useUnsavedChangesPrompt(dirty);
  // Navigate only after the render that cleared `dirty`, so the unsaved-changes blocker lets the new page open.
  useEffect(() => {
    if (createdId !== undefined) navigate(`/project/detail/${createdId}/devices`);
  }, [createdId, navigate]);
  const rule = (field: keyof TProjectCreate) => [zodRule(ZProjectCreate, field, t)];
  const submit = (values: TProjectCreate) =>
    create.mutate(ZProjectCreate.parse(values), {
      onSuccess: (p) => {
        void message.success(t('projects.created'));
        setDirty(false);
        setCreatedId(p.id);
      },
      onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
    });
  return (
    <Card title={t('projects.create')}>
      <Form<TProjectCreate>
        layout="vertical"
        onFinish={submit}
        initialValues={{ device_authz_method: 'all' }}
        onValuesChange={() => setDirty(true)}
        style={{ maxWidth: 560 }}
      >
        <Form.Item name="name" label={t('common.name')} rules={rule('name')}>
          <Input data-testid="project-name" />
        </Form.Item>
        <Form.Item name="description" label={t('common.description')} rules={rule('description')}>
          <Input.TextArea rows={3} data-testid="project-description" />
        </Form.Item>
        <Form.Item name="product_id" label={t('projects.product')} rules={rule('product_id')}>
          <Select
            data-testid="project-product"
            loading={catalog.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            options={(catalog.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            notFoundContent={t('projects.noProducts')}
          />
        </Form.Item>
        <Form.Item name="tangram_product_id" label={t('projects.module')} rules={rule('tangram_product_id')}>
          <Select
            data-testid="project-module"
            loading={modules.isFetching}
            showSearch={{ filterOption: false, onSearch: (q) => setModuleQuery(q || undefined) }}
            options={(modules.data?.data ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.model_number})` }))}
          />
        </Form.Item>
        <Form.Item name="device_authz_method" label={t('projects.authz')} rules={rule('device_authz_method')}>
          <Radio.Group data-testid="project-authz">
            {DEVICE_AUTHZ_METHODS.map((m) => (
              <Radio key={m} value={m} data-testid={`project-authz-${m}`}>
                {t(`projects.authzMethods.${m}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="project-submit">
            {t('common.create')}
          </Button>
          <Button onClick={() => navigate('/project/list')}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
