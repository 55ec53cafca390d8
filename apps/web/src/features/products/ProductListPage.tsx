/**
 * /product/list (spec §2, vendor only): paged, searchable product table with the product sum, image thumbnails,
 * create/edit/delete (delete asks first and shows the server's refusal while a project uses the product),
 * product functions and the product classes drawer.
 */
import { AppstoreOutlined, DeleteOutlined, EditOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { TProduct } from '@tessera/contracts';
import { App, Button, Card, Empty, Flex, Image, Input, Space, Statistic, Table } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rowTestId } from '../../components/rowTestId';
import { useListQuery } from '../../components/usePagedQuery';
import { useDeleteProduct, useProducts, useProductsSum } from './api';
import { ProductClassesDrawer } from './ProductClassesDrawer';
import { ProductFormModal } from './ProductFormModal';
import { ProductFunctionsModal } from './ProductFunctionsModal';

/** The product list. */
export default function ProductListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { query, search, paginate } = useListQuery();
  const products = useProducts(query);
  const sum = useProductsSum();
  const remove = useDeleteProduct();
  const [form, setForm] = useState<{ product: TProduct | null } | null>(null);
  const [functionsOf, setFunctionsOf] = useState<TProduct | null>(null);
  const [classesOpen, setClassesOpen] = useState(false);

  const confirmDelete = (p: TProduct) =>
    modal.confirm({
      title: t('products.deleteTitle', { name: p.name }),
      content: t('products.deleteContent'),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'product-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(p.id).then(
          () => {
            void message.success(t('products.deleted'));
          },
          (e: Error) => {
            modal.error({ title: t('products.deleteFailed'), content: <span data-testid="product-delete-error">{e.message}</span> });
          },
        ),
    });

  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ product: null })} data-testid="product-create">
      {t('products.create')}
    </Button>
  );
  return (
    <Card
      title={t('products.title')}
      extra={
        <Space>
          <Button icon={<AppstoreOutlined />} onClick={() => setClassesOpen(true)} data-testid="product-classes">
            {t('products.classes.title')}
          </Button>
          {createButton}
        </Space>
      }
    >
      <Flex style={{ marginBottom: 16 }} justify="space-between" align="center">
        <Input.Search
          allowClear
          placeholder={t('products.searchPlaceholder')}
          onSearch={search}
          style={{ maxWidth: 320 }}
          data-testid="product-search"
        />
        <Statistic title={t('products.sum')} value={sum.data?.total ?? 0} loading={sum.isLoading} data-testid="product-sum" />
      </Flex>
      <Table<TProduct>
        rowKey="id"
        loading={products.isFetching}
        dataSource={products.data?.data ?? []}
        onRow={rowTestId('product')}
        locale={{
          emptyText: <Empty description={query.q ? t('products.noMatch') : t('products.empty')}>{!query.q && createButton}</Empty>,
        }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: products.data?.total_items ?? 0,
          showTotal: (total) => t('common.total', { total }),
          onChange: paginate,
        }}
        columns={[
          {
            title: t('products.image'),
            dataIndex: 'image_url',
            width: 72,
            render: (url: string | null) => (url ? <Image src={url} width={40} height={40} style={{ objectFit: 'contain' }} /> : '—'),
          },
          { title: t('common.name'), dataIndex: 'name' },
          { title: t('products.model'), dataIndex: 'model' },
          { title: t('products.number'), dataIndex: 'number' },
          { title: t('products.modelNumber'), dataIndex: 'model_number' },
          { title: t('products.class'), dataIndex: 'class_name', render: (c: string | null) => c ?? '—' },
          { title: t('common.createdAt'), dataIndex: 'created_at', render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm') },
          {
            title: t('common.actions'),
            width: 130,
            render: (_: unknown, p) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('products.edit')}
                  onClick={() => setForm({ product: p })}
                  data-testid={`product-edit-${p.id}`}
                />
                <Button
                  size="small"
                  icon={<SettingOutlined />}
                  aria-label={t('products.functions.open')}
                  onClick={() => setFunctionsOf(p)}
                  data-testid={`product-functions-${p.id}`}
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  onClick={() => confirmDelete(p)}
                  data-testid={`product-delete-${p.id}`}
                />
              </Space>
            ),
          },
        ]}
      />
      <ProductFormModal open={form !== null} product={form?.product ?? null} onClose={() => setForm(null)} />
      <ProductFunctionsModal product={functionsOf} onClose={() => setFunctionsOf(null)} />
      <ProductClassesDrawer open={classesOpen} onClose={() => setClassesOpen(false)} />
    </Card>
  );
}
