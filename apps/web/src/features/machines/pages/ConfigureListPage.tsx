/**
 * /machine/configure (vendors; docs/decisions/machines.md): the tenant's machine configures — picture, name,
 * components with their keys, how many machines use each — searched and paged; create and edit in a drawer; delete
 * with a confirmation. A configure with machines cannot be deleted: the page explains why (with a link to those
 * machines) instead of asking, and again if the server refuses because the list was stale (409 IN_USE).
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { ErrorCode, type TMachineConfigure } from '@tessera/contracts';
import { App, Button, Flex, Image, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListPage } from '../../../components/ListPage';
import { useListQuery } from '../../../components/usePagedQuery';
import type { HttpError } from '../../../lib/http';
import { useDeleteMachineConfigure, useMachineConfigures } from '../api';
import { ConfigureDrawer } from '../components/ConfigureDrawer';

/** The configure list. */
export default function ConfigureListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const list = useListQuery();
  const configures = useMachineConfigures(list.query);
  const remove = useDeleteMachineConfigure();
  const [editing, setEditing] = useState<TMachineConfigure | null | undefined>(undefined);

  const explainInUse = (c: TMachineConfigure, serverMessage?: string) => {
    const dialog = modal.warning({
      title: t('machines.configure.inUseTitle', { name: c.name }),
      content: (
        <Space direction="vertical">
          <span data-testid="configure-in-use">{serverMessage ?? t('machines.configure.inUseContent', { count: c.instance_count })}</span>
          {/* The dialog renders outside the router, so it navigates with the page's navigate instead of a Link. */}
          <Button
            type="link"
            style={{ padding: 0 }}
            onClick={() => {
              dialog.destroy();
              navigate(`/machine/equipment?configure=${c.id}`);
            }}
            data-testid="configure-in-use-machines"
          >
            {t('machines.configure.showMachines')}
          </Button>
        </Space>
      ),
      okButtonProps: { 'data-testid': 'configure-in-use-ok' },
    });
  };
  const confirmDelete = (c: TMachineConfigure) => {
    if (c.in_use) return explainInUse(c);
    modal.confirm({
      title: t('machines.configure.deleteTitle', { name: c.name }),
      content: t('machines.configure.deleteContent'),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'configure-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(c.id).then(
          () => void message.success(t('machines.configure.deleted')),
          (e: HttpError) => {
            if (e.code === ErrorCode.InUse) explainInUse(c, t('machines.configure.inUseRefused', { message: e.message }));
            else modal.error({ title: t('machines.deleteFailed'), content: e.message });
          },
        ),
    });
  };
  const create = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="configure-create">
      {t('machines.configure.create')}
    </Button>
  );

  return (
    <ListPage<TMachineConfigure>
      title={t('machines.configure.title')}
      extra={create}
      list={list}
      result={configures}
      searchPlaceholder={t('machines.configure.searchPlaceholder')}
      searchTestId="configure-search"
      rowPrefix="configure"
      empty={{ text: t('machines.configure.empty'), noMatch: t('machines.configure.noMatch'), action: create, testId: 'configures-empty' }}
      columns={[
        {
          title: t('machines.configure.picture'),
          dataIndex: 'image_url',
          width: 88,
          render: (url: string | null) => (url ? <Image src={url} width={56} height={56} style={{ objectFit: 'contain' }} alt="" /> : '—'),
        },
        {
          title: t('common.name'),
          dataIndex: 'name',
          render: (name: string, c) => (
            <Space>
              {name}
              {c.in_use && <Tag color="blue">{t('machines.configure.inUse')}</Tag>}
            </Space>
          ),
        },
        {
          title: t('machines.configure.components'),
          dataIndex: 'components',
          render: (components: TMachineConfigure['components']) => (
            <Flex wrap gap={4}>
              {components.map((p) => (
                <Tooltip key={p.id} title={`${p.product_name}: ${p.keys.join(', ')}`}>
                  <Tag>{p.name}</Tag>
                </Tooltip>
              ))}
            </Flex>
          ),
        },
        {
          title: t('machines.configure.machines'),
          dataIndex: 'instance_count',
          width: 120,
          render: (n: number, c) => (n ? <Link to={`/machine/equipment?configure=${c.id}`}>{n}</Link> : 0),
        },
        {
          title: t('common.actions'),
          key: 'actions',
          width: 110,
          render: (_, c) => (
            <Space>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('machines.configure.edit')}
                onClick={() => setEditing(c)}
                data-testid={`configure-edit-${c.id}`}
              />
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                onClick={() => confirmDelete(c)}
                data-testid={`configure-delete-${c.id}`}
              />
            </Space>
          ),
        },
      ]}
    >
      <ConfigureDrawer configure={editing} onClose={() => setEditing(undefined)} />
    </ListPage>
  );
}
