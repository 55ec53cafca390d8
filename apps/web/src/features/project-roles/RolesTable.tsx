/**
 * A list of roles of one kind (spec §6 "Device roles (regular users), project roles (component makers) and machine
 * roles; a role in use cannot be deleted"): permissions, devices or machines, members; create, edit, delete. A role
 * in use (with members) cannot be deleted: the list explains why instead of asking to confirm, and says so again if
 * the server refuses (409 IN_USE). Used by the project's roles tab (project and device roles) and the machine roles
 * page.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { ErrorCode, type TProjectRole, type TRoleKind } from '@tessera/contracts';
import { App, Button, Empty, Flex, Input, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rowTestId } from '../../components/rowTestId';
import { useListQuery } from '../../components/usePagedQuery';
import type { HttpError } from '../../lib/http';
import { useDeleteRole, useRoles } from './api';
import { RoleDrawer } from './RoleDrawer';

/** The roles of `kind` of project `projectId` (null: the tenant's machine roles). */
export function RolesTable({ kind, projectId }: { kind: TRoleKind; projectId: number | null }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { query, search, paginate } = useListQuery();
  const roles = useRoles(kind, projectId, query);
  const remove = useDeleteRole(kind, projectId);
  const [editing, setEditing] = useState<TProjectRole | null | undefined>(undefined);

  const explainInUse = (role: TProjectRole) =>
    modal.warning({
      title: t('projectRoles.inUseTitle', { name: role.name }),
      content: <span data-testid="role-in-use">{t('projectRoles.inUseContent', { count: role.member_emails.length })}</span>,
      okButtonProps: { 'data-testid': 'role-in-use-ok' },
    });
  const confirmDelete = (role: TProjectRole) => {
    if (role.in_use) return explainInUse(role);
    modal.confirm({
      title: t('projectRoles.deleteTitle', { name: role.name }),
      content: t('projectRoles.deleteContent'),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'role-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(role.id).then(
          () => void message.success(t('projectRoles.deleted')),
          (e: HttpError) => {
            if (e.code === ErrorCode.InUse) explainInUse(role);
            else modal.error({ title: t('projectRoles.deleteFailed'), content: e.message });
          },
        ),
    });
  };
  const create = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="role-create">
      {t('projectRoles.create')}
    </Button>
  );

  return (
    <>
      <Flex justify="space-between" style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder={t('projectRoles.searchPlaceholder')} onSearch={search} style={{ maxWidth: 320 }} />
        {create}
      </Flex>
      <Table<TProjectRole>
        rowKey="id"
        loading={roles.isFetching}
        dataSource={roles.data?.data ?? []}
        onRow={rowTestId('role')}
        locale={{
          emptyText: (
            <Empty
              description={query.q ? t('projectRoles.noMatch') : t(kind === 'machine' ? 'projectRoles.emptyMachine' : 'projectRoles.empty')}
              data-testid="roles-empty"
            >
              {!query.q && create}
            </Empty>
          ),
        }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: roles.data?.total_items ?? 0,
          hideOnSinglePage: true,
          onChange: paginate,
        }}
        columns={[
          {
            title: t('common.name'),
            dataIndex: 'name',
            render: (name: string, role) => (
              <Space>
                {name}
                {role.in_use && <Tag color="blue">{t('projectRoles.inUse')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('projectRoles.permissionsLabel'),
            dataIndex: 'permissions',
            render: (ps: TProjectRole['permissions']) => ps.map((p) => <Tag key={p}>{t(`projectRoles.permissions.${p}`)}</Tag>),
          },
          kind === 'machine'
            ? {
                title: t('projectRoles.machinesLabel'),
                dataIndex: 'machines',
                render: (ms: TProjectRole['machines']) => (
                  <Tooltip title={ms.map((m) => m.name).join(', ')}>
                    <span>{t('projectRoles.machineCount', { count: ms.length })}</span>
                  </Tooltip>
                ),
              }
            : {
                title: t('projectRoles.devicesLabel'),
                dataIndex: 'devices',
                render: (ds: TProjectRole['devices']) => (
                  <Tooltip title={ds.map((d) => d.name).join(', ')}>
                    <span>{t('projectRoles.deviceCount', { count: ds.length })}</span>
                  </Tooltip>
                ),
              },
          {
            title: t('projectRoles.membersLabel'),
            dataIndex: 'member_emails',
            render: (emails: string[]) => (emails.length ? emails.join(', ') : '—'),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 110,
            render: (_, role) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('projectRoles.edit')}
                  onClick={() => setEditing(role)}
                  data-testid={`role-edit-${role.id}`}
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  onClick={() => confirmDelete(role)}
                  data-testid={`role-delete-${role.id}`}
                />
              </Space>
            ),
          },
        ]}
      />
      <RoleDrawer kind={kind} projectId={projectId} role={editing} onClose={() => setEditing(undefined)} />
    </>
  );
}
