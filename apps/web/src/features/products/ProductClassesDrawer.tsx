/**
 * Product classes (spec §7 products/classes): list with product counts, create, rename, delete. A class in use
 * cannot be deleted: the server answers 409 IN_USE and its message is shown.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type TProductClass, type TProductClassInput, ZProductClassInput } from '@tessera/contracts';
import { App, Button, Drawer, Empty, Form, Input, Modal, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rowTestId } from '../../components/rowTestId';
import { zodRule } from '../../lib/zodRules';
import { useDeleteProductClass, useProductClasses, useSaveProductClass } from './api';

/** The drawer; `editing` undefined = closed name dialog, null = new class, a class = rename it. */
export function ProductClassesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const classes = useProductClasses();
  const save = useSaveProductClass();
  const remove = useDeleteProductClass();
  const [editing, setEditing] = useState<TProductClass | null | undefined>(undefined);
  const [form] = Form.useForm<TProductClassInput>();

  const openEditor = (cls: TProductClass | null) => {
    setEditing(cls);
    form.setFieldsValue({ name: cls?.name ?? '' });
  };
  const submit = (values: TProductClassInput) =>
    save.mutate(
      { id: editing?.id, body: ZProductClassInput.parse(values) },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          setEditing(undefined);
        },
        onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
      },
    );
  const confirmDelete = (cls: TProductClass) =>
    modal.confirm({
      title: t('products.classes.deleteTitle', { name: cls.name }),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'class-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(cls.id).then(
          () => {
            void message.success(t('products.classes.deleted'));
          },
          (e: Error) => {
            modal.error({ title: t('products.classes.deleteFailed'), content: <span data-testid="class-delete-error">{e.message}</span> });
          },
        ),
    });

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('products.classes.title')}
      width={520}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => openEditor(null)} data-testid="class-create">
          {t('products.classes.create')}
        </Button>
      }
    >
      <Table<TProductClass>
        rowKey="id"
        size="small"
        pagination={false}
        loading={classes.isFetching}
        dataSource={classes.data ?? []}
        onRow={rowTestId('class')}
        locale={{ emptyText: <Empty description={t('products.classes.empty')} /> }}
        columns={[
          { title: t('common.name'), dataIndex: 'name' },
          { title: t('products.classes.productCount'), dataIndex: 'product_count', width: 100 },
          {
            title: t('common.actions'),
            width: 110,
            render: (_: unknown, cls) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => openEditor(cls)}
                  aria-label={t('products.classes.rename')}
                  data-testid={`class-edit-${cls.id}`}
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => confirmDelete(cls)}
                  aria-label={t('common.delete')}
                  data-testid={`class-delete-${cls.id}`}
                />
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={editing ? t('products.classes.rename') : t('products.classes.create')}
        onCancel={() => setEditing(undefined)}
        onOk={() => form.submit()}
        okButtonProps={{ loading: save.isPending, 'data-testid': 'class-submit' }}
        forceRender
      >
        <Form<TProductClassInput> form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="name" label={t('common.name')} rules={[zodRule(ZProductClassInput, 'name', t)]}>
            <Input data-testid="class-name" />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
