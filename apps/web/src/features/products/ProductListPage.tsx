/**
 * /product/list (spec §2, vendor only): paged, searchable product table with the product sum, image thumbnails,
 * create/edit/delete (delete asks first and shows the server's refusal while a project uses the product),
 * product functions and the product classes drawer.
 */
import { AppstoreOutlined, DeleteOutlined, EditOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { TProduct } from '@tessera/contracts';
import { App, Button, Image, Space, Statistic } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage';
import { useListQuery } from '../../components/usePagedQuery';
import { useDeleteProduct, useProducts, useProductsSum } from './api';
import { ProductClassesDrawer } from './ProductClassesDrawer';
import { ProductFormModal } from './ProductFormModal';
import { ProductFunctionsModal } from './ProductFunctionsModal';

/** The product list. */
export default function ProductListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const list = useListQuery();
  const products = useProducts(list.query);
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
    <ListPage<TProduct>
      title={t('products.title')}
      extra={
        <Space>
          <Button icon={<AppstoreOutlined />} onClick={() => setClassesOpen(true)} data-testid="product-classes">
            {t('products.classes.title')}
          </Button>
          {createButton}
        </Space>
      }
      list={list}
      result={products}
      searchPlaceholder={t('products.searchPlaceholder')}
      searchTestId="product-search"
      filters={
        <Statistic
          title={t('products.sum')}
          value={sum.data?.total ?? 0}
          loading={sum.isLoading}
          style={{ marginLeft: 'auto' }}
          data-testid="product-sum"
        />
      }
      rowPrefix="product"
      empty={{ text: t('products.empty'), noMatch: t('products.noMatch'), action: createButton }}
      columns={[
        {
          title: t('products.image'),
          dataIndex: 'image_url',
          width: 72,
          render: (url: string | null, p) =>
            url ? <Image src={url} alt={p.name} width={40} height={40} style={{ objectFit: 'contain' }} /> : '—',
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
    >
      <ProductFormModal open={form !== null} product={form?.product ?? null} onClose={() => setForm(null)} />
      <ProductFunctionsModal product={functionsOf} onClose={() => setFunctionsOf(null)} />
      <ProductClassesDrawer open={classesOpen} onClose={() => setClassesOpen(false)} />
    </ListPage>
  );
}
